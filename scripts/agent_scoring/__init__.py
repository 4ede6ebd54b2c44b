"""agent-scoring: deterministic scoring of AI-agent test runs in DuckDB + dbt."""

__version__ = "0.1.0"
