"""The table server: a Flask app that every phone at the table opens."""
