"""What everything else stands on: plain records, replies, refusals, clocks and durations, languages."""
