"""The live tables: the tables the room has opened, each game's live table and messages, the
protocol, recall, resume after a restart, the posted rules and the progressive controller."""
