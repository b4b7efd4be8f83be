"""The pieces of scripts/make_release_fixture.py, one concern per module."""
