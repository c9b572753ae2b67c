"""Work that outlives the command that caused it: the timer dispatcher, clock duties, the outbox, AI turns."""
