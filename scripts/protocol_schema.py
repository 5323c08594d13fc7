"""Write the table protocol's JSON Schema files to docs/protocol/ (docs/protocol.md).

Run after changing `cardroom.room.play.protocol` or `protocol_state`:
`.venv/bin/python scripts/protocol_schema.py`; tests/room/test_protocol.py checks the committed
files equal what this writes.
"""

from __future__ import annotations

from pathlib import Path

from cardroom.room.play.protocol import schema_files

OUT = Path(__file__).resolve().parent.parent / "docs" / "protocol"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, text in schema_files().items():
        (OUT / name).write_text(text)
        print(f"wrote {OUT / name}")


if __name__ == "__main__":
    main()
