"""LLM-as-Judge runner for the RAG Q&A evaluation (seed 003 §3).

Reads a dataset (`qa_dataset*.json`) and the chatbot's answers (JSONL), asks a judge for a
verdict per question and writes `evaluation_report_*.json` in the team's report schema, so
the warehouse's RAG models read it exactly like the real runs.
"""
