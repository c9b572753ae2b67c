"""The web transport: read-only spectator and replay pages served by the bot's own process
(aiohttp), updated live from the database's change feed. It shows what a spectator at the table
would see and nothing more: the board drawn from `view(None)`, the log in notation, public
events. `server` routes and serves, `pages` writes the HTML, `feed` fans commits out to the
open live streams."""
