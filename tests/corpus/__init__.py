"""The bad-input corpus: files/ is written by make_corpus.py."""
