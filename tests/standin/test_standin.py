"""The stand-in works with the real discord.py client: a small bot written here (not tileref's)."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import AsyncIterator, Callable
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.standin import DiscordStandIn, StandInTimeout
from tests.standin.model import PUBLIC_THREAD, TEXT, Channel, Guild, Member, Overwrite, Role, User
from tests.standin.permissions import ALL, VOICE_PERMISSIONS, channel_permissions
from tests.standin.permissions import names as permission_names

# ---------------------------------------------------------------------------- the test bot


def png_bytes(size: tuple[int, int] = (64, 32)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, "darkgreen").save(buf, "PNG")
    return buf.getvalue()


class JoinButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"table:(?P<table>\d+):join"):
    """A persistent button whose custom id encodes the table id."""

    def __init__(self, table: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Join", style=discord.ButtonStyle.primary, custom_id=f"table:{table}:join"
            )
        )
        self.table = table

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> JoinButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"{interaction.user.name} joined table {self.table}", ephemeral=True
        )


class BoardView(discord.ui.View):
    """A classic persistent view (timeout=None, fixed custom ids) that edits its message."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Refresh", custom_id="board:refresh", style=discord.ButtonStyle.secondary)
    async def refresh(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.edit_message(content=f"refreshed by {interaction.user.name}", view=self)

    @discord.ui.button(label="Pass", custom_id="board:pass")
    async def pass_turn(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()  # DEFERRED_UPDATE_MESSAGE, then edit through the channel route
        assert interaction.message is not None
        await interaction.message.edit(content=f"{interaction.user.name} passed")


class PickView(discord.ui.View):
    @discord.ui.select(
        custom_id="pick", options=[discord.SelectOption(label=t, value=t) for t in ("a", "b", "c")]
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.edit_message(content=f"picked {select.values[0]}", view=None)


class NameModal(discord.ui.Modal, title="Name your table"):
    table_name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name", custom_id="table_name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"table named {self.table_name.value}")


game = app_commands.Group(name="game", description="Play a tile game")
mod = app_commands.Group(
    name="mod", description="Moderation", default_permissions=discord.Permissions(manage_threads=True)
)
mod_table = app_commands.Group(name="table", description="Table moderation", parent=mod)
TILES = ["3:5", "3:6", "4:4", "5:5", "6:6"]


@game.command(name="new", description="Start a new game")
@app_commands.describe(variant="Which game", turn_time="Time per turn")
@app_commands.choices(
    variant=[
        app_commands.Choice(name="Tronimoes", value="tronimoes"),
        app_commands.Choice(name="Dominoes", value="dominoes"),
    ]
)
async def game_new(
    interaction: discord.Interaction, variant: app_commands.Choice[str], turn_time: str = "1h", seats: int = 4
) -> None:
    await interaction.response.send_message(
        f"new {variant.value} game, {seats} seats, {turn_time} per turn", ephemeral=True
    )


@game.command(name="move", description="Play a tile")
async def game_move(interaction: discord.Interaction, tile: str) -> None:
    await interaction.response.defer(thinking=True)
    file = discord.File(io.BytesIO(png_bytes((120, 80))), filename="board.png")
    await interaction.followup.send(f"{interaction.user.name} played {tile}", file=file)


@game_move.autocomplete("tile")
async def tile_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=t, value=t) for t in TILES if t.startswith(current)]


@game.command(name="table", description="Open a table with a thread")
async def game_table(interaction: discord.Interaction, name: str) -> None:
    assert isinstance(interaction.channel, discord.TextChannel)
    await interaction.response.send_message(f"Table {name}", view=BoardView())
    message = await interaction.original_response()
    thread = await message.create_thread(name=f"table-{name}")
    await thread.add_user(interaction.user)
    view = discord.ui.View(timeout=None)
    view.add_item(JoinButton(7))
    await thread.send("Who plays?", view=view)


@game.command(name="hand", description="Show your tiles privately")
async def game_hand(interaction: discord.Interaction) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    await interaction.followup.send("your hand: 3:5 6:6")
    await interaction.followup.send("and a second, public follow-up", ephemeral=False)


@game.command(name="pick", description="Pick one")
async def game_pick(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("pick one", view=PickView())


@game.command(name="early", description="Sends a follow-up before acknowledging (a bug)")
async def game_early(interaction: discord.Interaction) -> None:
    try:
        await interaction.followup.send("too early")
    except discord.NotFound:
        await interaction.response.send_message("follow-up refused")


@app_commands.context_menu(name="Invite to table")
async def invite_user(interaction: discord.Interaction, member: discord.Member) -> None:
    await interaction.response.send_message(f"invited {member.name}", ephemeral=True)


@game.command(name="rename", description="Name the table with a modal")
async def game_rename(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(NameModal())


@mod_table.command(name="kick", description="Remove a player")
async def mod_kick(
    interaction: discord.Interaction, player: discord.Member, reason: str | None = None
) -> None:
    await interaction.response.send_message(f"kicked {player.display_name} ({reason or 'no reason'})")


class StandInTestBot(commands.Bot):
    def __init__(self, sync_guild: int | None = None) -> None:
        intents = discord.Intents.default()
        intents.message_content = True
        super().__init__(command_prefix="!", intents=intents, guild_ready_timeout=0.05)
        self.sync_guild = sync_guild
        self.tree.add_command(game)
        self.tree.add_command(mod)
        self.tree.add_command(invite_user)

    async def setup_hook(self) -> None:
        self.add_view(BoardView())
        self.add_dynamic_items(JoinButton)
        if self.sync_guild is None:
            await self.tree.sync()
        else:
            guild = discord.Object(self.sync_guild)
            self.tree.copy_global_to(guild=guild)
            self.tree.clear_commands(guild=None)
            await self.tree.sync(guild=guild)
            await self.tree.sync()

    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot:
            return
        if message.content.startswith("ping"):
            await message.channel.send(f"pong {message.content[5:]}".strip())
        await self.process_commands(message)


# ---------------------------------------------------------------------------- fixtures


@pytest.fixture
async def standin() -> AsyncIterator[DiscordStandIn]:
    async with DiscordStandIn() as s:
        yield s
        s.assert_clean()


@pytest.fixture
async def bot(standin: DiscordStandIn) -> AsyncIterator[StandInTestBot]:
    async with standin.run_bot(StandInTestBot()) as running:
        yield running


# ---------------------------------------------------------------------------- tests


async def test_connects_and_syncs_commands(standin: DiscordStandIn, bot: StandInTestBot) -> None:
    assert bot.user is not None and bot.user.id == standin.bot_user.id
    assert [c["name"] for c in standin.global_commands] == ["game", "mod", "Invite to table"]
    game_json, mod_json, _ = standin.global_commands
    assert {o["options"][0]["autocomplete"] for o in game_json["options"] if o["name"] == "move"} == {True}
    assert mod_json["default_member_permissions"] == str(discord.Permissions(manage_threads=True).value)
    assert mod_json["options"][0]["type"] == 2 and mod_json["options"][0]["options"][0]["name"] == "kick"
    await bot.wait_until_ready()
    guild = bot.get_guild(standin.guild.id)
    assert guild is not None and guild.get_channel(standin.channel.id) is not None
    assert guild.me is not None


async def test_slash_command_answers_ephemerally(standin: DiscordStandIn, bot: StandInTestBot) -> None:
    handle = await standin.slash(
        standin.alice, standin.channel, "game new", variant="tronimoes", turn_time="2h"
    )
    reply = await handle.reply()
    assert reply.ephemeral
    assert reply.content == "new tronimoes game, 4 seats, 2h per turn"
    assert reply.interaction_id == handle.id
    assert standin.interaction_responses[handle.id].callback_type == 4
    with pytest.raises(ValueError, match="not one of the choices"):
        await standin.slash(standin.alice, standin.channel, "game new", variant="chess")
    with pytest.raises(ValueError, match="missing required"):
        await standin.slash(standin.alice, standin.channel, "game new")


async def test_defer_then_followup_with_png(standin: DiscordStandIn, bot: StandInTestBot) -> None:
    handle = await standin.slash(standin.bob, standin.channel, "game move", tile="3:5")
    reply = await handle.reply()
    assert handle.record.callback_type == 5
    assert reply.content == "bob played 3:5" and not reply.ephemeral and not reply.loading
    [image] = reply.png_images()
    assert image.size == (120, 80)
    assert reply.attachments[0][0] == "board.png"
    # the placeholder was created first, then filled in by the follow-up
    kinds = [(m.kind, m.loading) for m in standin.messages if m.id == reply.id]
    assert kinds == [("create", True), ("edit", False)]


async def test_autocomplete_returns_choices(standin: DiscordStandIn, bot: StandInTestBot) -> None:
    choices = await standin.autocomplete(standin.alice, standin.channel, "game move", text="3:")
    assert [c["value"] for c in choices] == ["3:5", "3:6"]


async def test_thread_and_persistent_buttons_survive_a_restart(standin: DiscordStandIn) -> None:
    async with standin.run_bot(StandInTestBot()):
        handle = await standin.slash(standin.carol, standin.channel, "game table", name="alpha")
        board = await handle.reply()
        assert board.content == "Table alpha"
        assert [b.custom_id for b in board.buttons()] == ["board:refresh", "board:pass"]
        thread = await standin.wait_for_thread(lambda t: t.name == "table-alpha")
        assert thread.parent_id == standin.channel.id and thread.id == board.id
        prompt = await standin.wait_for_message(thread, lambda m: m.content == "Who plays?")
        assert standin.carol.id in thread.member_ids
        assert prompt.button("Join").custom_id == "table:7:join"

        clicked = await (await standin.click(standin.alice, prompt, "table:7:join")).reply()
        assert clicked.content == "alice joined table 7" and clicked.ephemeral

    # A new bot instance ("restart") against the same stand-in and state.
    async with standin.run_bot(StandInTestBot()):
        clicked = await (await standin.click(standin.bob, prompt, "table:7:join")).reply()
        assert clicked.content == "bob joined table 7"
        refreshed = await (await standin.click(standin.bob, board, label="Refresh")).reply()
        assert refreshed.kind == "edit" and refreshed.id == board.id
        assert refreshed.content == "refreshed by bob"
        assert standin.message(board.id).content == "refreshed by bob"
    assert standin.gateway.session_count == 2


async def test_message_create_is_answered(standin: DiscordStandIn, bot: StandInTestBot) -> None:
    said = await standin.say(standin.alice, standin.channel, "ping 3:5 c4 d4")
    answer = await said.reply()
    assert answer.content == "pong 3:5 c4 d4"
    assert answer.channel_id == standin.channel.id
    again = await standin.say(standin.bob, standin.channel, "ping again")
    assert (await standin.wait_for_message(standin.channel)).content == "pong again"
    assert again.message.author_id == standin.bob.id


async def test_without_message_content_intent_content_is_blank(standin: DiscordStandIn) -> None:
    seen: list[str] = []

    class Deaf(commands.Bot):
        async def on_message(self, message: discord.Message) -> None:
            seen.append(message.content)
            if not message.author.bot:
                await message.channel.send("heard something")

    deaf = Deaf(command_prefix="!", intents=discord.Intents.default())
    async with standin.run_bot(deaf):
        await (await standin.say(standin.alice, standin.channel, "ping secret")).reply()
    assert seen[0] == ""


async def test_subcommand_group_permissions_and_user_option(
    standin: DiscordStandIn, bot: StandInTestBot
) -> None:
    with pytest.raises(PermissionError):
        await standin.slash(standin.alice, standin.channel, "mod table kick", player=standin.bob)
    reply = await (
        await standin.slash(standin.mod, standin.channel, "mod table kick", player=standin.bob)
    ).reply()
    assert reply.content == "kicked bob (no reason)"
    standin.set_permissions(standin.alice, discord.Permissions(manage_threads=True))
    reply = await (
        await standin.slash(standin.alice, standin.channel, "mod table kick", player="carol", reason="afk")
    ).reply()
    assert reply.content == "kicked carol (afk)"


async def test_modal_round_trip(standin: DiscordStandIn, bot: StandInTestBot) -> None:
    opened = await standin.slash(standin.alice, standin.channel, "game rename")
    modal = await opened.modal()
    assert modal["title"] == "Name your table"
    submitted = await standin.submit_modal(standin.alice, opened, {"table_name": "Omega"})
    assert (await submitted.reply()).content == "table named Omega"


async def test_refused_requests_are_recorded(standin: DiscordStandIn, bot: StandInTestBot) -> None:
    channel = bot.get_channel(standin.channel.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.HTTPException) as info:
        await channel.send("x" * 2001)
    assert info.value.code == 50035 and "content" in str(info.value)
    assert len(standin.errors) == 1
    with pytest.raises(StandInTimeout):
        await standin.wait_for_message(standin.channel, timeout=0.05)
    standin.errors.clear()


async def test_rest_round_trips(standin: DiscordStandIn, bot: StandInTestBot) -> None:
    channel = bot.get_channel(standin.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("hello", file=discord.File(io.BytesIO(png_bytes()), "a.png"))
    assert sent.attachments[0].width == 64
    assert await sent.attachments[0].read() == png_bytes()
    await sent.edit(content="edited", attachments=[])
    fetched = await channel.fetch_message(sent.id)
    assert fetched.content == "edited" and fetched.attachments == []
    history = [m.content async for m in channel.history(limit=5)]
    assert history == ["edited"]
    await sent.add_reaction("✅")
    await sent.delete()
    assert standin.deleted_message_ids == [sent.id]
    member = await bot.get_guild(standin.guild.id).fetch_member(standin.alice.id)  # type: ignore[union-attr]
    assert member.name == "alice"
    dm = await (await bot.fetch_user(standin.bob.id)).send("psst")
    assert standin.dm_channel(standin.bob) is not None and dm.channel.id == standin.dm_channel(standin.bob).id  # type: ignore[union-attr]
    thread = await channel.create_thread(name="side", type=discord.ChannelType.public_thread)
    with pytest.raises(discord.Forbidden):  # locking needs Manage Threads, which the invite leaves out
        await thread.edit(locked=True)
    standin.errors.clear()
    standin.set_overwrite(standin.channel, standin.bot_role, allow=["manage_threads"])
    await standin.settle()
    await thread.edit(archived=True, locked=True)
    assert standin.channels[thread.id].archived and standin.channels[thread.id].locked
    assert await bot.tree.fetch_commands()


async def test_closed_dms_are_refused(standin: DiscordStandIn, bot: StandInTestBot) -> None:
    standin.close_dms(standin.carol)
    carol = await bot.fetch_user(standin.carol.id)
    with pytest.raises(discord.Forbidden) as info:
        await carol.send("psst")
    assert info.value.code == 50007
    assert len(standin.errors) == 1
    standin.errors.clear()
    standin.close_dms(standin.carol, closed=False)
    await carol.send("psst")


async def test_gateway_uses_zlib_stream_and_resumes(standin: DiscordStandIn, bot: StandInTestBot) -> None:
    assert standin.gateway.connect_queries[0] == {"v": "10", "encoding": "json", "compress": "zlib-stream"}
    await standin.reconnect_bot(resume=True)
    # dispatched while the bot is reconnecting: buffered and replayed on RESUME
    handle = await standin.slash(standin.alice, standin.channel, "game new", variant="dominoes")
    assert (await handle.reply()).content.startswith("new dominoes game")
    await standin.wait_until(lambda: standin.gateway.resume_count == 1, timeout=5, what="RESUME")
    assert standin.gateway.session_count == 1


async def test_guild_synced_commands(standin: DiscordStandIn) -> None:
    async with standin.run_bot(StandInTestBot(sync_guild=standin.guild.id)):
        assert standin.global_commands == []
        assert "game" in [c["name"] for c in standin.guild_commands[standin.guild.id]]
        handle = await standin.slash(standin.alice, standin.channel, "game new", variant="tronimoes", seats=2)
        assert handle.payload["data"]["guild_id"] == str(standin.guild.id)
        assert (await handle.reply()).content == "new tronimoes game, 2 seats, 1h per turn"


async def test_deferred_update_then_channel_edit(standin: DiscordStandIn, bot: StandInTestBot) -> None:
    board = await (await standin.slash(standin.carol, standin.channel, "game table", name="beta")).reply()
    await standin.wait_for_message(predicate=lambda m: m.content == "Who plays?")
    handle = await standin.click(standin.alice, board, label="Pass")
    edited = await handle.reply()
    assert handle.record.callback_type == 6
    assert edited.id == board.id and edited.content == "alice passed" and edited.kind == "edit"


async def test_ephemeral_defer_and_followups(standin: DiscordStandIn, bot: StandInTestBot) -> None:
    handle = await standin.slash(standin.bob, standin.channel, "game hand")
    first, second = await handle.replies(2)
    assert first.content == "your hand: 3:5 6:6" and first.ephemeral
    assert first.id == handle.record.original_id
    assert second.content == "and a second, public follow-up" and not second.ephemeral
    assert [m.id for m in handle.record.followups] == [first.id, second.id]
    with pytest.raises(PermissionError):
        await standin.click(standin.alice, first, "anything")  # someone else's ephemeral message


async def test_select_menu_and_context_menu(standin: DiscordStandIn, bot: StandInTestBot) -> None:
    menu = await (await standin.slash(standin.alice, standin.channel, "game pick")).reply()
    assert menu.selects()[0].options == (("a", "a"), ("b", "b"), ("c", "c"))
    with pytest.raises(ValueError):
        await standin.select(standin.alice, menu, "pick", ["z"])
    picked = await (await standin.select(standin.alice, menu, "pick", ["b"])).reply()
    assert picked.content == "picked b" and picked.components == []
    invited = await (
        await standin.context_menu(standin.alice, standin.channel, "Invite to table", standin.bob)
    ).reply()
    assert invited.content == "invited bob"


async def test_protocol_violations_are_refused() -> None:
    async with DiscordStandIn(interaction_deadline=0.0) as standin:
        async with standin.run_bot(StandInTestBot()):
            handle = await standin.slash(standin.alice, standin.channel, "game new", variant="tronimoes")
            with pytest.raises(StandInTimeout):
                await handle.reply(timeout=0.5)
            assert "10062" in standin.errors[0]
        standin.errors.clear()
    async with DiscordStandIn() as standin, standin.run_bot(StandInTestBot()):
        reply = await (await standin.slash(standin.alice, standin.channel, "game early")).reply()
        assert reply.content == "follow-up refused"
        assert "Unknown Webhook" in standin.errors[0]


async def test_sharded_bot_uses_gateway_bot(standin: DiscordStandIn) -> None:
    class Sharded(commands.AutoShardedBot):
        async def setup_hook(self) -> None:
            self.tree.add_command(game)
            await self.tree.sync()

    async with standin.run_bot(Sharded(command_prefix="!", intents=discord.Intents.default())):
        assert "GET /gateway/bot" in standin.requests
        assert standin.gateway.identify_payloads[0]["shard"] == [0, 1]
        reply = await (
            await standin.slash(standin.alice, standin.channel, "game new", variant="tronimoes")
        ).reply()
        assert reply.ephemeral


async def test_a_message_sent_again_with_its_enforced_nonce_is_the_first_one(
    standin: DiscordStandIn, bot: StandInTestBot
) -> None:
    channel = bot.get_channel(standin.channel.id)
    assert isinstance(channel, discord.TextChannel)
    mark = standin.mark()
    first = await channel.send("once", nonce="row-17")
    again = await channel.send("once", nonce="row-17")  # discord.py sends enforce_nonce with it
    other = await channel.send("once", nonce="row-18")
    assert again.id == first.id and other.id != first.id
    assert [m.id for m in standin.messages[mark:] if m.kind == "create"] == [first.id, other.id]
    assert standin.nonce_repeats == [first.id]
    with pytest.raises(discord.HTTPException) as info:
        await channel.send("long", nonce="x" * 26)
    assert info.value.code == 50035
    standin.errors.clear()


async def test_a_stand_in_that_forgets_nonces_posts_a_message_sent_again_twice(
    standin: DiscordStandIn, bot: StandInTestBot
) -> None:
    channel = bot.get_channel(standin.channel.id)
    assert isinstance(channel, discord.TextChannel)
    standin.nonce_seconds = 0.0
    first = await channel.send("once", nonce="row-17")
    again = await channel.send("once", nonce="row-17")
    assert again.id != first.id and standin.nonce_repeats == []


async def test_replies_and_reactions_need_read_message_history_and_add_reactions(
    standin: DiscordStandIn, bot: StandInTestBot
) -> None:
    channel = bot.get_channel(standin.channel.id)
    assert isinstance(channel, discord.TextChannel)
    said = await channel.send("hello")
    without = discord.Permissions(standin.guild.everyone.permissions)
    without.add_reactions = without.read_message_history = False
    standin.guild.everyone.permissions = without.value
    standin.set_permissions(standin.bot_user, discord.Permissions(send_messages=True, view_channel=True))
    with pytest.raises(discord.Forbidden):
        await said.add_reaction("✅")
    with pytest.raises(discord.Forbidden):
        await channel.send("a reply", reference=said)
    assert len(standin.errors) == 2
    standin.errors.clear()


# ---------------------------------------------------------------------------- permissions, as Discord computes them

EVERYONE = discord.Permissions(view_channel=True, send_messages=True, send_messages_in_threads=True,
                               read_message_history=True, embed_links=True, attach_files=True).value


class World:
    """A guild (the owner, a member with the roles "players" and "helpers"), a text channel and a
    public thread in it: plain data, no server."""

    def __init__(self, everyone: int = EVERYONE) -> None:
        self.owner, self.ann = User(1, "owner"), User(2, "ann")
        self.guild = Guild(id=100, name="g", owner_id=self.owner.id)
        self.guild.roles[100] = Role(id=100, name="@everyone", permissions=everyone)
        self.players = Role(id=101, name="players", permissions=0, position=1)
        self.helpers = Role(id=102, name="helpers", permissions=0, position=2)
        self.guild.roles.update({101: self.players, 102: self.helpers})
        self.guild.members[1] = Member(self.owner)
        self.guild.members[2] = Member(self.ann, role_ids=[101, 102])
        self.channel = Channel(id=200, type=TEXT, name="general", guild_id=100)
        self.thread = Channel(id=201, type=PUBLIC_THREAD, name="table", guild_id=100, parent_id=200)
        self.guild.channels.update({200: self.channel, 201: self.thread})

    def overwrite(self, target: Role | User, *, allow: int = 0, deny: int = 0) -> None:
        kind = 1 if isinstance(target, User) else 0
        self.channel.overwrites.append(Overwrite(id=target.id, type=kind, allow=allow, deny=deny))

    def may(self, user: User, *wanted: str, where: Channel | None = None) -> bool:
        has = discord.Permissions(channel_permissions(self.guild, where or self.channel, user.id))
        return all(getattr(has, name) for name in wanted)


def p(*names: str) -> int:
    return discord.Permissions(**dict.fromkeys(names, True)).value


def test_the_guild_owner_may_do_everything_whatever_the_overwrites_say() -> None:
    world = World(everyone=0)
    world.overwrite(world.owner, deny=p("view_channel", "attach_files"))
    world.overwrite(world.guild.everyone, deny=p("view_channel"))
    assert channel_permissions(world.guild, world.channel, world.owner.id) == ALL & ~VOICE_PERMISSIONS
    assert channel_permissions(world.guild, world.thread, world.owner.id) == ALL


def test_administrator_grants_everything_and_no_overwrite_takes_it_back() -> None:
    world = World()
    world.helpers.permissions = p("administrator")
    world.overwrite(world.helpers, deny=p("attach_files", "view_channel"))
    world.overwrite(world.ann, deny=p("send_messages"))
    assert channel_permissions(world.guild, world.channel, world.ann.id) == ALL & ~VOICE_PERMISSIONS
    assert channel_permissions(world.guild, world.thread, world.ann.id) == ALL


def test_base_permissions_are_everyone_and_every_role_together() -> None:
    world = World(everyone=p("view_channel", "send_messages"))
    world.players.permissions = p("attach_files")
    assert world.may(world.ann, "view_channel", "send_messages", "attach_files")
    assert not world.may(world.ann, "embed_links")
    world.players.permissions = 0  # taken off the role, still granted by @everyone
    world.guild.everyone.permissions |= p("attach_files")
    assert world.may(world.ann, "attach_files")


def test_overwrites_apply_everyone_then_the_roles_then_the_member() -> None:
    world = World()
    world.overwrite(world.guild.everyone, deny=p("attach_files", "embed_links"))
    assert not world.may(world.ann, "attach_files") and not world.may(world.ann, "embed_links")
    world.overwrite(world.players, allow=p("attach_files"))  # a role's allow beats @everyone's deny
    assert world.may(world.ann, "attach_files") and not world.may(world.ann, "embed_links")
    world.overwrite(world.ann, deny=p("attach_files"), allow=p("embed_links"))  # the member's beats both
    assert not world.may(world.ann, "attach_files") and world.may(world.ann, "embed_links")
    assert world.may(world.owner, "attach_files", "embed_links")


def test_a_member_overwrite_beats_a_role_overwrite() -> None:
    world = World()
    world.overwrite(world.helpers, deny=p("add_reactions"))
    world.overwrite(world.ann, allow=p("add_reactions"))
    assert world.may(world.ann, "add_reactions")


def test_a_role_that_allows_beats_a_role_that_denies_whatever_their_positions() -> None:
    """Discord's example: role A denies View Channel in a channel, role B allows it: the member sees it."""
    world = World(everyone=p("send_messages"))
    world.overwrite(world.helpers, deny=p("view_channel"))  # the higher role denies
    world.overwrite(world.players, allow=p("view_channel"))
    assert world.may(world.ann, "view_channel", "send_messages")


def test_without_send_messages_a_channel_takes_files_embeds_and_everyone_pings_too() -> None:
    world = World(everyone=EVERYONE | p("mention_everyone", "send_tts_messages"))
    world.overwrite(world.players, deny=p("send_messages"))
    assert world.may(world.ann, "view_channel", "read_message_history")
    for taken in ("send_messages", "attach_files", "embed_links", "mention_everyone", "send_tts_messages"):
        assert not world.may(world.ann, taken), taken


def test_without_view_channel_nothing_is_left_in_the_channel_or_its_threads() -> None:
    world = World()
    world.overwrite(world.ann, deny=p("view_channel"))
    assert channel_permissions(world.guild, world.channel, world.ann.id) == 0
    assert channel_permissions(world.guild, world.thread, world.ann.id) == 0


def test_a_thread_takes_its_parent_channels_overwrites() -> None:
    world = World()
    world.overwrite(world.players, deny=p("attach_files"))
    assert not world.may(world.ann, "attach_files", where=world.thread)
    assert world.may(world.ann, "send_messages_in_threads", "embed_links", where=world.thread)


def test_in_a_thread_send_messages_in_threads_is_what_counts() -> None:
    world = World()
    world.overwrite(world.guild.everyone, deny=p("send_messages"))  # an announcements-like channel
    assert not world.may(world.ann, "attach_files")
    assert world.may(world.ann, "send_messages_in_threads", "attach_files", where=world.thread)
    world.overwrite(world.players, deny=p("send_messages_in_threads"))
    assert not world.may(world.ann, "attach_files", where=world.thread)
    assert world.may(world.ann, "view_channel", "read_message_history", where=world.thread)


async def test_the_bots_cache_agrees_with_the_server_as_roles_and_overwrites_change(
    standin: DiscordStandIn, bot: StandInTestBot
) -> None:
    channel = bot.get_channel(standin.channel.id)
    assert isinstance(channel, discord.TextChannel)
    thread = await channel.create_thread(name="table", type=discord.ChannelType.public_thread)
    stand_in_thread = standin.channels[thread.id]
    me = channel.guild.me

    def agree() -> bool:
        return all(
            place.permissions_for(me).value == standin.permissions_in(standin.bot_user, standin.channels[place.id])
            for place in (channel, thread)
        )

    async def heard() -> bool:
        """Whether the bot's cache agrees with the server once it has read the events sent."""
        await standin.settle()
        for _ in range(200):
            if agree():
                return True
            await asyncio.sleep(0.01)
        return False

    helpers = standin.add_role("helpers", permissions=p("embed_links"))
    standin.give_role(standin.bot_user, helpers)
    changes: list[Callable[[], None]] = [
        lambda: standin.withhold_from_bot("attach_files"),
        lambda: standin.set_overwrite(standin.channel, standin.guild.everyone, deny=["embed_links", "add_reactions"]),
        lambda: standin.set_overwrite(standin.channel, helpers, allow=["add_reactions"]),
        lambda: standin.set_overwrite(standin.channel, standin.bot_user, deny=["send_messages_in_threads"]),
        lambda: standin.set_role_permissions(standin.guild.everyone, p("view_channel")),
        lambda: standin.set_role_permissions(standin.bot_role, p("administrator")),
    ]
    assert await heard()
    for change in changes:
        change()
        assert await heard(), (permission_names(channel.permissions_for(me).value),
                               permission_names(standin.permissions_in(standin.bot_user, standin.channel)))
    assert thread.permissions_for(me) == discord.Permissions.all()

    standin.set_role_permissions(standin.bot_role, 0)
    assert await heard()
    standin.withhold_from_bot("view_channel", tell_bot=False)  # the server knows, the bot not yet
    await asyncio.sleep(0.1)
    assert channel.permissions_for(me).view_channel and thread.permissions_for(me).view_channel
    assert standin.permissions_in(standin.bot_user, stand_in_thread) == 0
    standin.send_update(standin.channel)
    assert await heard() and not thread.permissions_for(me).view_channel


async def test_channel_routes_refuse_what_roles_and_overwrites_take_away(
    standin: DiscordStandIn, bot: StandInTestBot
) -> None:
    channel = bot.get_channel(standin.channel.id)
    assert isinstance(channel, discord.TextChannel)
    thread = await channel.create_thread(name="table", type=discord.ChannelType.public_thread)
    said = await thread.send("hello")
    standin.withhold_from_bot("attach_files", "add_reactions")  # on the parent: the thread follows
    await standin.settle()
    with pytest.raises(discord.Forbidden) as refused:
        await thread.send("board", file=discord.File(io.BytesIO(png_bytes()), "board.png"))
    assert refused.value.code == 50013
    with pytest.raises(discord.Forbidden):
        await said.add_reaction("✅")
    await thread.send("board as text", reference=said)  # Read Message History is still there
    standin.set_overwrite(standin.channel, standin.bot_user, allow=["attach_files"])  # the member's own wins
    await standin.settle()
    await thread.send("board", file=discord.File(io.BytesIO(png_bytes()), "board.png"))

    standin.set_overwrite(standin.channel, standin.guild.everyone, deny=["send_messages"])
    await standin.settle()
    with pytest.raises(discord.Forbidden):
        await channel.send("in the channel")
    await thread.send("in the thread")  # Send Messages in Threads is what a thread needs
    standin.set_overwrite(standin.channel, standin.bot_role, deny=["view_channel"])
    await standin.settle()
    with pytest.raises(discord.Forbidden) as hidden:
        await thread.send("anyone?")
    assert hidden.value.code == 50001  # Missing Access: the bot cannot see the channel
    with pytest.raises(discord.Forbidden):
        await channel.create_thread(name="another", type=discord.ChannelType.public_thread)
    assert [e.split(": ", 1)[1][:3] for e in standin.errors] == ["403"] * 5
    dm = await (await bot.fetch_user(standin.bob.id)).send("DMs are not bound by the server's permissions")
    assert dm.content.startswith("DMs")
    standin.errors.clear()
