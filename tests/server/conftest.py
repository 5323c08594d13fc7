from room.storage_fixture import db_url, storage  # noqa: F401
