"""Baseline for `domino-table bench`: N random 4-player double-six hands with the PyPI package
`dominoes` (Game.new / valid_moves / make_move). Usage: python dominoes_baseline.py N [SEED]"""

import random
import sys

import dominoes


def main() -> None:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    random.seed(int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    results = 0
    for _ in range(hands):
        game = dominoes.Game.new()
        while game.result is None:
            game.make_move(*random.choice(game.valid_moves))
        results += 1
    print(f"dominoes: {results} hands")


if __name__ == "__main__":
    main()
