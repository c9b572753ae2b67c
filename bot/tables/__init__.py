"""The command core: a table read, changed under its lock as one unit of work, and committed with its announcements."""
