"""The claims suite: pytest + hypothesis tests that decide each claim's verdict, the pytest
plugin that aggregates them, and the report writers."""
