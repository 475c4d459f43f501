"""Tournaments: bots over duplicate deals in every seat rotation, with paired statistics.

``games`` plays one game, ``runner`` schedules games on a backend, ``stats`` turns results into
intervals and ratings, ``report`` writes tables, JSON and a chart.
"""
