"""The run browser (`score-report site`): static pages from the marts (build.py), their
HTML and charts (html.py, charts.py), and a local server for them (serve.py)."""
