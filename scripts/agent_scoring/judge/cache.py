"""Verdict cache in its own DuckDB file.

Keyed by sha256 of (model, prompt version, rendered system prompt, rendered user prompt): any
change to the question, the answer, the documents shown, the templates or the model makes a
new key, and an unchanged input is never paid for twice. It is a separate file from the dbt
warehouse because dbt rewrites that one and holds its lock while building.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import duckdb

from agent_scoring.db import default_db_path
from agent_scoring.judge.verdict import Verdict, VerdictError, validate

DEFAULT_CACHE = ".judge_cache.duckdb"


class CacheError(Exception):
    """The cache file cannot be used; the message says what to do instead."""


def default_cache_path() -> Path:
    return Path(os.environ.get("JUDGE_CACHE") or DEFAULT_CACHE)


def cache_key(model: str, prompt_version: str, system: str, user: str) -> str:
    # JSON keeps the four parts apart: ("ab", "c") and ("a", "bc") must not collide.
    material = json.dumps([model, prompt_version, system, user], ensure_ascii=False)
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


class VerdictCache:
    """Used from one thread only (the runner's main loop); DuckDB connections are not shared."""

    def __init__(self, path: Path) -> None:
        self.path = path
        _refuse_warehouse(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._con = duckdb.connect(str(path))
        except duckdb.IOException as exc:
            if "lock" in str(exc).lower():
                raise CacheError(
                    f"{path}: judge cache is locked by another process (another judge run?); "
                    "wait for it, or pass --cache OTHER.duckdb or --no-cache"
                ) from None
            raise CacheError(f"{path}: cannot open judge cache ({exc})") from None
        except duckdb.Error as exc:
            raise CacheError(f"{path}: not a DuckDB judge cache ({exc})") from None
        self._con.execute(
            """
            create table if not exists judge_verdicts (
                cache_key varchar primary key,
                model varchar not null,
                prompt_version varchar not null,
                verdict json not null,
                created_at timestamp default current_timestamp
            )
            """
        )

    def get(self, key: str) -> Verdict | None:
        row = self._con.execute(
            "select verdict from judge_verdicts where cache_key = ?", [key]
        ).fetchone()
        if row is None:
            return None
        try:
            return validate(json.loads(row[0]))
        except (VerdictError, json.JSONDecodeError, TypeError):
            # A row written by an older, looser version: ask the judge again.
            return None

    def put(self, key: str, model: str, prompt_version: str, verdict: Verdict) -> None:
        self._con.execute(
            "insert or replace into judge_verdicts (cache_key, model, prompt_version, verdict) "
            "values (?, ?, ?, ?)",
            [key, model, prompt_version, json.dumps(verdict.to_dict(), ensure_ascii=False)],
        )

    def close(self) -> None:
        self._con.close()

    def __enter__(self) -> VerdictCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _refuse_warehouse(path: Path) -> None:
    if path.resolve() == default_db_path().resolve():
        raise CacheError(
            f"{path}: that is the dbt warehouse file, which dbt rewrites; "
            f"use another --cache path (default {DEFAULT_CACHE})"
        )
