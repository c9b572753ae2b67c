"""What the transports call: the referee (lobby, play, reading), moderation and rematches."""
