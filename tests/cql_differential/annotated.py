"""Writes tests/cql_differential/annotated.pgn: games with variations, comments and glyphs.

The main lines of real games (the lichess sample's games 41 to 52, their first 60 plies), with
random legal side lines grown at random moves (some nested), random comments and glyphs, some
glyphs glued to their moves. Needs python-chess (`pip install chess`):

    python3 annotated.py ../../../shared/data/pgn/lichess_db_1000k.pgn 40 12 > annotated.pgn
    sed -i 's/\\([a-hRNBQKO1-8+#=]\\) \\$2 /\\1? /g; s/\\([a-hRNBQKO1-8+#=]\\) \\$5 /\\1!? /g' annotated.pgn
"""
import io, random, sys
import chess, chess.pgn

rng = random.Random(20261127)
WORDS = ["good", "bad", "Carlsen", "threat", "mate", "better", "!", "idea", "e4", "the only move", "Qh5"]

def grow(node, board, plies, depth):
    """Adds `plies` random moves after node (a variation's moves), maybe with nested lines."""
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            return
        move = rng.choice(moves)
        child = node.add_variation(move)
        decorate(child)
        board.push(move)
        if depth < 3 and rng.random() < 0.15:
            sub = board.copy()
            sub.pop()
            alternatives = [m for m in sub.legal_moves if m != move]
            if alternatives:
                alt = rng.choice(alternatives)
                side = node.add_variation(alt)
                decorate(side)
                sub.push(alt)
                grow(side, sub, rng.randint(0, 5), depth + 1)
        node = child

def decorate(node):
    if rng.random() < 0.25:
        node.comment = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4)))
    if rng.random() < 0.15:
        node.nags.add(rng.choice([1, 2, 3, 4, 5, 6, 10, 14, 15, 16, 17, 18, 19, 22, 36, 132]))
    if rng.random() < 0.05:
        node.starting_comment = rng.choice(WORDS)

def annotate(game):
    out = chess.pgn.Game()
    for key, value in game.headers.items():
        out.headers[key] = value
    out.headers["Annotator"] = "generated"
    if rng.random() < 0.5:
        out.comment = "a game with side lines"
    node, board = out, game.board()
    for ply, move in enumerate(game.mainline_moves()):
        if ply >= 60:
            break
        if rng.random() < 0.12:
            alternatives = [m for m in board.legal_moves if m != move]
            for _ in range(rng.randint(1, 2)):
                if alternatives:
                    alt = alternatives.pop(rng.randrange(len(alternatives)))
                    side = node.add_variation(alt)
                    decorate(side)
                    sub = board.copy()
                    sub.push(alt)
                    grow(side, sub, rng.randint(0, 8), 1)
        child = node.add_main_variation(move) if not node.variations else node.add_variation(move)
        # Keep the game's move first.
        node.variations.remove(child)
        node.variations.insert(0, child)
        decorate(child)
        board.push(move)
        node = child
    out.headers["Result"] = game.headers.get("Result", "*") if ply < 60 else "*"
    return out

games = []
with open(sys.argv[1]) as source:
    skip = int(sys.argv[2])
    for _ in range(skip):
        chess.pgn.skip_game(source)
    while len(games) < int(sys.argv[3]):
        game = chess.pgn.read_game(source)
        if game is None:
            break
        games.append(game)
for game in games:
    print(annotate(game), end="\n\n")
