"""Tournaments between agents, ratings, balance studies and their reports."""
