"""Adapters: boardct's games as PettingZoo, Gymnasium and OpenSpiel environments.

They know the games only through the core API (`legal_ids`, `apply_id`, `observation_tensor`
and the rest of `State`), so every registered game is an environment of each library. The
libraries are optional extras (`boardct[rl]`, `boardct[openspiel]`): this package imports
nothing heavy, and each module imports its library when first used, with an `ImportError`
naming the extra to install when it is missing.
"""
