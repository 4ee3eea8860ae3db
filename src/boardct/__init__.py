"""boardct: a rules-enforcing referee, board and opponent for turn-based tactics games."""

__version__ = "0.1.0"
