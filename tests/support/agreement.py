"""Reference figures for the warehouse's agreement columns, from scikit-learn: Cohen's κ
(quadratic weights on the 0-5 points, or none), precision and recall."""

from __future__ import annotations

import math
import warnings

from sklearn.metrics import cohen_kappa_score, precision_score, recall_score

POINTS = [0, 1, 2, 3, 4, 5]


def defined(value: float) -> float | None:
    """None where scikit-learn says undefined (nan), as the warehouse's null."""
    return None if math.isnan(value) else float(value)


def kappa(llm: list[float], rules: list[float], weights: str) -> float | None:
    """score_agreement.kappa by scikit-learn: quadratic weights on the points 0-5 (its
    labels, so that a weight is the squared difference in points), or unweighted ('none')
    over the scores given."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "undefined": nan, which is what is compared
        if weights == "quadratic":
            assert set(llm) | set(rules) <= set(POINTS), "quadratic κ here: whole points"
            return defined(cohen_kappa_score(llm, rules, weights="quadratic", labels=POINTS))
        return defined(cohen_kappa_score(llm, rules))


def binary_agreement(predicted: list[bool], actual: list[bool]) -> dict[str, float | None]:
    """Precision and recall of `predicted` (positive: True) against `actual`, and Cohen's κ."""
    nan = float("nan")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {
            "precision": defined(precision_score(actual, predicted, zero_division=nan)),
            "recall": defined(recall_score(actual, predicted, zero_division=nan)),
            "kappa": defined(cohen_kappa_score(predicted, actual)) if predicted else None,
        }
