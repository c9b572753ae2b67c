"""Work done in other processes: AI planning and drawing pictures, in pools that end with the bot."""
