"""stats.py - the few statistics the benchmark reports: medians, ratios of
paired rounds, and how numbers are written in the tables.

Owns: the arithmetic and the number formats. Never runs anything.
"""
import statistics


def median(values):
    return statistics.median(values)


def paired_ratios(values, baseline):
    """values[i] / baseline[i] for each round i: both ran in the same round,
    close in time, so drift of the machine cancels out of each ratio."""
    return [v / b for v, b in zip(values, baseline)]


def relative_iqr(values):
    """The middle half's width over the median: how much the runs of one
    command wandered (0 for fewer than two runs)."""
    if len(values) < 2:
        return 0.0
    q1, _, q3 = statistics.quantiles(values, n=4)
    return (q3 - q1) / statistics.median(values)


def quartiles(values):
    """(lower quartile, upper quartile) of values (the value itself twice
    for a single one)."""
    if len(values) < 2:
        return values[0], values[0]
    q1, _, q3 = statistics.quantiles(values, n=4)
    return q1, q3


def spread(values, fmt):
    """'low-high' of values, written with fmt."""
    return "%s-%s" % (fmt(min(values)), fmt(max(values)))


def seconds(value):
    return "%.3f" % value


def ratio(value):
    return "%.3f" % value


def percent_more(value):
    """A ratio to a baseline as the change it is: 1.014 -> '+1.4%'."""
    return "%+.1f%%" % ((value - 1) * 100)


def count(value):
    return "%d" % round(value)


def verdict(met):
    return "met" if met else "MISSED"
