"""The read-only web server of a catalogue (``catalogue serve``): a FastAPI application run by uvicorn."""
