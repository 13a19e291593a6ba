#!/usr/bin/env python3
"""Generate sample PGN files for six lichess variants with a cheap, seeded 2-ply policy.

Usage (python-chess 1.11.2, `pip install chess`), from this folder:
    python3 lichess-variants.py .            # writes ./{atomic,antichess,...}.pgn
    python3 lichess-variants.py --verify .   # re-reads the files and prints the table only

Both sides play the same policy: a 1- or 2-ply search over a material evaluation plus the
variant's own goal, with seeded Gaussian noise on the root moves (larger in the opening) so
the games differ.  Everything is seeded, so a rerun writes the same files byte for byte.
"""

import io
import os
import random
import sys

import chess
import chess.pgn
import chess.variant

DATE = "2026.11.26"
SITE = "cqlq samples"
MAX_PLIES = 120
WIN = 100000

VALUES = {
    chess.PAWN: 100,
    chess.KNIGHT: 300,
    chess.BISHOP: 320,
    chess.ROOK: 500,
    chess.QUEEN: 900,
    chess.KING: 0,
}

CENTRE = [chess.D4, chess.E4, chess.D5, chess.E5]

PLAYERS = [
    "knightowl_84", "PawnStormer", "zugzwang_zoe", "Blitzkrieg_Bob", "fianchetto_fred",
    "EnPassantEnjoyer", "rookie_mistake", "MaxTheMover", "quietmove_q", "Tactician2004",
    "BoomBoomBishop", "hilltop_hank", "horde_of_one", "checkcheckmate", "RacingRita",
    "loseallwin", "SacrificeSam", "gambit_greta", "OpenFileOtto", "darksquaredan",
    "PromoteToKing", "ExplodingQueen", "centre_seeker", "LastPawnStanding",
]


def material(board):
    s = 0
    for pt, v in VALUES.items():
        s += v * (len(board.pieces(pt, chess.WHITE)) - len(board.pieces(pt, chess.BLACK)))
    return s


def centrality(sq):
    f, r = chess.square_file(sq), chess.square_rank(sq)
    return 3.5 - max(abs(f - 3.5), abs(r - 3.5))


def development(board):
    """Small bonus for centralised knights and bishops (white minus black)."""
    s = 0.0
    for colour, sign in ((chess.WHITE, 1), (chess.BLACK, -1)):
        for pt in (chess.KNIGHT, chess.BISHOP):
            for sq in board.pieces(pt, colour):
                s += sign * 6 * centrality(sq)
    return s


def king_shelter(board):
    """Penalty for a king that left its home rank while the enemy queen is on the board."""
    s = 0
    for colour, sign in ((chess.WHITE, 1), (chess.BLACK, -1)):
        k = board.king(colour)
        if k is None or not board.pieces(chess.QUEEN, not colour):
            continue
        home = 0 if colour == chess.WHITE else 7
        s -= sign * 25 * abs(chess.square_rank(k) - home)
    return s


def hill_distance(sq):
    f, r = chess.square_file(sq), chess.square_rank(sq)
    return min(max(abs(f - chess.square_file(c)), abs(r - chess.square_rank(c))) for c in CENTRE)


# --- evaluations, from White's point of view -------------------------------------------------

def eval_atomic(board):
    s = material(board) + development(board) + king_shelter(board)
    # Pressure on the enemy king: our pieces attacking enemy pieces next to it.
    for colour, sign in ((chess.WHITE, 1), (chess.BLACK, -1)):
        k = board.king(not colour)
        if k is None:
            continue
        for sq in chess.SquareSet(chess.BB_KING_ATTACKS[k]) & board.occupied_co[not colour]:
            if board.is_attacked_by(colour, sq):
                s += sign * 40
    return s


def eval_antichess(board):
    # Fewer pieces is better; a light preference for keeping the king over other pieces
    # is not wanted here: every piece counts the same.
    w = chess.popcount(board.occupied_co[chess.WHITE])
    b = chess.popcount(board.occupied_co[chess.BLACK])
    return 100 * (b - w)


def eval_horde(board):
    s = material(board) + development(board)
    for sq in board.pieces(chess.PAWN, chess.WHITE):
        s += 6 * chess.square_rank(sq)
    # Black wants the horde thinned out; each white pawn costs Black a little extra.
    s += 20 * len(board.pieces(chess.PAWN, chess.WHITE))
    return s


def eval_koth(board):
    s = material(board) + development(board)
    for colour, sign in ((chess.WHITE, 1), (chess.BLACK, -1)):
        k = board.king(colour)
        if k is not None:
            s -= sign * 80 * hill_distance(k)
    return s


def race_distance(board, colour):
    """King moves to rank 8 over squares the enemy does not attack and own pieces leave free."""
    k = board.king(colour)
    if k is None:
        return 12
    enemy = 0
    for sq in chess.SquareSet(board.occupied_co[not colour]):
        enemy |= board.attacks_mask(sq)
    blocked = enemy | board.occupied_co[colour]
    frontier = seen = chess.BB_SQUARES[k]
    for d in range(10):
        if frontier & chess.BB_RANK_8:
            return d
        nxt = 0
        for sq in chess.SquareSet(frontier):
            nxt |= chess.BB_KING_ATTACKS[sq]
        nxt &= ~blocked & ~seen
        if not nxt:
            return 12
        seen |= nxt
        frontier = nxt
    return 12


def eval_racing(board):
    s = material(board) // 3
    for colour, sign in ((chess.WHITE, 1), (chess.BLACK, -1)):
        k = board.king(colour)
        if k is not None:
            s += sign * (100 * chess.square_rank(k) - 250 * race_distance(board, colour))
    return s


def eval_threecheck(board):
    s = material(board) + development(board) + king_shelter(board)
    # remaining_checks[c] counts down as c gives checks.
    s += 300 * (board.remaining_checks[chess.BLACK] - board.remaining_checks[chess.WHITE])
    return s


VARIANTS = [
    # file stem, board class, event name, evaluation, base seed
    ("atomic", chess.variant.AtomicBoard, "Atomic", eval_atomic, 1100),
    ("antichess", chess.variant.AntichessBoard, "Antichess", eval_antichess, 2200),
    ("horde", chess.variant.HordeBoard, "Horde", eval_horde, 3300),
    ("king-of-the-hill", chess.variant.KingOfTheHillBoard, "King of the Hill", eval_koth, 4400),
    ("racing-kings", chess.variant.RacingKingsBoard, "Racing Kings", eval_racing, 5500),
    ("three-check", chess.variant.ThreeCheckBoard, "Three-check", eval_threecheck, 6600),
]


# --- search ----------------------------------------------------------------------------------

def leaf_value(board, evaluate):
    """Value for the side to move, cheap: variant ends, and mate only when in check."""
    if board.is_variant_end():
        if board.is_variant_win():
            return WIN
        if board.is_variant_loss():
            return -WIN
        return 0
    if board.is_check() and not any(board.generate_legal_moves()):
        return -WIN
    v = evaluate(board)
    return v if board.turn == chess.WHITE else -v


def full_value(board, evaluate):
    """Value for the side to move, with mate and stalemate."""
    outcome = board.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return 0
        return WIN if outcome.winner == board.turn else -WIN
    return None


def choose_move(board, evaluate, rng, depth, noise):
    best, best_score = None, None
    for move in list(board.legal_moves):
        board.push(move)
        fv = full_value(board, evaluate)
        if fv is not None:
            score = -fv
        elif depth == 1:
            score = -leaf_value(board, evaluate)
        else:
            reply_best = None
            for reply in list(board.legal_moves):
                board.push(reply)
                v = -leaf_value(board, evaluate)  # for the replier
                board.pop()
                if reply_best is None or v > reply_best:
                    reply_best = v
                    if v >= WIN:
                        break
            score = -reply_best
        if board.is_repetition(2):
            score -= 30
        board.pop()
        score += rng.gauss(0, noise)
        if best_score is None or score > best_score:
            best, best_score = move, score
    return best


def play(cls, evaluate, seed):
    rng = random.Random(seed)
    board = cls()
    depth = 2
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None or len(board.move_stack) >= MAX_PLIES:
            break
        ply = len(board.move_stack)
        noise = 90 if ply < 4 else (40 if ply < 12 else 15)
        board.push(choose_move(board, evaluate, rng, depth, noise))
    return board


# --- rare events -------------------------------------------------------------------------------

def events_at(board, stem):
    """The rare events of the game ending at board: (ply index of the move, name, comment)."""
    found = []
    outcome = board.outcome(claim_draw=True)
    replay = board.root()
    moves = list(board.move_stack)
    last = len(moves) - 1
    for i, move in enumerate(moves):
        if stem == "atomic" and i == last and replay.is_capture(move):
            victim = not replay.turn
            k = replay.king(victim)
            if k is not None and chess.square_distance(k, move.to_square) <= 1:
                nxt = replay.copy(stack=False)
                nxt.push(move)
                if nxt.king(victim) is None:
                    found.append((i, "king exploded by %s" % replay.san(move),
                                  "The capture on %s explodes the king next to it."
                                  % chess.square_name(move.to_square)))
        if stem == "antichess" and move.promotion == chess.KING:
            found.append((i, "promotion =K (%s)" % replay.san(move),
                          "Promotion to a king, legal in antichess."))
        replay.push(move)
    if outcome is not None:
        t = outcome.termination
        variant_end = t in (chess.Termination.VARIANT_WIN, chess.Termination.VARIANT_LOSS)
        side = chess.COLOR_NAMES[outcome.winner].capitalize() if outcome.winner is not None else None
        if stem == "antichess" and variant_end:
            found.append((last, "won by losing all pieces",
                          "%s has no pieces left and wins." % side))
        if stem == "antichess" and t == chess.Termination.STALEMATE:
            found.append((last, "won by stalemate", "%s is stalemated and wins." % side))
        if stem == "horde":
            if outcome.winner == chess.BLACK and variant_end:
                found.append((last, "Black captured the whole horde", "The last white pawn falls."))
            if outcome.winner == chess.WHITE and t == chess.Termination.CHECKMATE:
                found.append((last, "White mated", "The horde mates."))
        if stem == "king-of-the-hill" and variant_end:
            k = chess.square_name(board.king(outcome.winner))
            found.append((last, "king reached the hill (%s)" % k, "The king is on the hill at %s." % k))
        if stem == "racing-kings":
            who = [c for c in chess.COLORS
                   if board.king(c) is not None and chess.square_rank(board.king(c)) == 7]
            if who:
                names = "+".join(chess.COLOR_NAMES[c] for c in who)
                comment = ("Both kings are on the eighth rank: a draw." if len(who) == 2
                           else "The %s king reaches the eighth rank." % names)
                found.append((last, "king reached rank 8 (%s)" % names, comment))
        if stem == "three-check" and min(board.remaining_checks) <= 0:
            found.append((last, "third check", "The third check wins."))
    return found


def events(board, stem):
    return [name for _, name, _ in events_at(board, stem)]


# Events that each file must contain at least once (prefix match on the event names).
REQUIRED = {
    "atomic": [["king exploded"]],
    "antichess": [["promotion =K"], ["won by losing all pieces", "won by stalemate"]],
    "horde": [["Black captured the whole horde", "White mated"]],
    "king-of-the-hill": [["king reached the hill"]],
    "racing-kings": [["king reached rank 8"]],
    "three-check": [["third check"]],
}
# Requirements that may be given up after this many games were tried.
OPTIONAL_AFTER = {("antichess", 0): 3000}


def meets(evs, alternatives):
    return any(e.startswith(a) for e in evs for a in alternatives)


# --- PGN writing -------------------------------------------------------------------------------

def termination_name(board):
    o = board.outcome(claim_draw=True)
    return "Normal" if o is not None else "Unterminated"


def result_of(board):
    o = board.outcome(claim_draw=True)
    return o.result() if o is not None else "*"


def to_game(board, event_name, round_no, white, black, elo, comments):
    game = chess.pgn.Game.from_board(board)
    result = result_of(board)
    headers = [
        ("Event", "Casual %s game" % event_name),
        ("Site", SITE),
        ("Date", DATE),
        ("Round", str(round_no)),
        ("White", white),
        ("Black", black),
        ("Result", result),
    ]
    if elo:
        headers += [("WhiteElo", elo[0]), ("BlackElo", elo[1])]
    headers.append(("Variant", event_name))
    if elo:
        headers.append(("TimeControl", "180+2"))
    root = board.root()
    if root.fen() != type(root).starting_fen:
        headers += [("SetUp", "1"), ("FEN", root.fen())]
    headers.append(("Termination", termination_name(board)))
    game.headers.clear()
    for k, v in headers:
        game.headers[k] = v
    nodes = list(game.mainline())
    for ply, text in comments:
        nodes[ply].comment = (nodes[ply].comment + " " + text).strip()
    return game


def pgn_text(game):
    exporter = chess.pgn.StringExporter(headers=True, variations=True, comments=True, columns=80)
    return game.accept(exporter)


def generate(stem, cls, event_name, evaluate, base_seed, log):
    required = REQUIRED[stem]
    chosen = []  # (seed, board, events)
    capped_used = False
    seed = base_seed
    tried = 0
    active = list(range(len(required)))
    while len(chosen) < 6:
        for idx in list(active):
            limit = OPTIONAL_AFTER.get((stem, idx))
            if limit is not None and tried >= limit and not any(meets(c[2], required[idx]) for c in chosen):
                log("  %s: gave up on %s after %d games" % (stem, required[idx], tried))
                active.remove(idx)
        board = play(cls, evaluate, seed)
        tried += 1
        evs = events(board, stem)
        capped = board.outcome(claim_draw=True) is None
        unmet = [i for i in active if not any(meets(c[2], required[i]) for c in chosen)]
        slots = 6 - len(chosen)
        ok = not (capped and capped_used)
        if ok and len(unmet) >= slots:
            ok = any(meets(evs, required[i]) for i in unmet)
        if ok:
            chosen.append((seed, board, evs))
            capped_used = capped_used or capped
        seed += 1
    log("  %s: %d games tried, seeds %s" % (stem, tried, [c[0] for c in chosen]))
    return chosen


def first_capture(board):
    replay = board.root()
    for i, move in enumerate(board.move_stack):
        if replay.is_capture(move):
            return i
        replay.push(move)
    return None


def write_file(outdir, stem, cls, event_name, evaluate, base_seed, log):
    chosen = generate(stem, cls, event_name, evaluate, base_seed, log)
    rng = random.Random(base_seed)
    names = PLAYERS[:]
    rng.shuffle(names)
    elo_game = rng.randrange(6)
    # Comments: the rare events of the first game that has the most required ones, and the first
    # capture of another game.
    required = REQUIRED[stem]
    met = [sum(meets(c[2], alts) for alts in required) for c in chosen]
    event_game = met.index(max(met))
    capture_game = rng.choice([i for i in range(6) if i != event_game])
    texts = []
    for i, (seed, board, evs) in enumerate(chosen):
        white, black = names[2 * i % len(names)], names[(2 * i + 1) % len(names)]
        elo = None
        if i == elo_game:
            w = 1500 + rng.randrange(0, 600, 5)
            elo = (str(w), str(w + rng.randrange(-150, 155, 5)))
        comments = []
        if i == event_game:
            comments = [(ply, text) for ply, _, text in events_at(board, stem)]
        if i == capture_game:
            ply = first_capture(board)
            if ply is not None:
                comments.append((ply, "The first capture."))
        game = to_game(board, event_name, i + 1, white, black, elo, comments)
        texts.append(pgn_text(game))
        log("  %s game %d (seed %d): %d plies, %s, events: %s"
            % (stem, i + 1, seed, len(board.move_stack), result_of(board), ", ".join(evs) or "-"))
    path = os.path.join(outdir, stem + ".pgn")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n\n".join(texts) + "\n")
    return path


# --- verification -------------------------------------------------------------------------------

def verify(outdir):
    rows = []
    ok_all = True
    for stem, cls, event_name, _, _ in VARIANTS:
        path = os.path.join(outdir, stem + ".pgn")
        with open(path, encoding="utf-8") as f:
            text = f.read()
        handle = io.StringIO(text)
        plies, results, evs_all, problems = [], [], [], []
        n = 0
        while True:
            game = chess.pgn.read_game(handle)
            if game is None:
                break
            n += 1
            if game.errors:
                problems.append("game %d: %s" % (n, game.errors))
            board = game.board()
            if type(board) is not cls:
                problems.append("game %d: board %s" % (n, type(board).__name__))
            if game.headers.get("Variant") != event_name:
                problems.append("game %d: Variant tag %r" % (n, game.headers.get("Variant")))
            for k, move in enumerate(game.mainline_moves()):
                if board.outcome(claim_draw=True) is not None:
                    problems.append("game %d: moves after the end at ply %d" % (n, k))
                if move not in board.legal_moves:
                    problems.append("game %d: illegal move at ply %d" % (n, k))
                    break
                board.push(move)
            o = board.outcome(claim_draw=True)
            want = game.headers.get("Result")
            got = o.result() if o is not None else "*"
            if want != got:
                problems.append("game %d: Result %s but position says %s" % (n, want, got))
            plies.append(len(board.move_stack))
            results.append(want)
            evs_all.append((n, events(board, stem)))
        for idx, alts in enumerate(REQUIRED[stem]):
            if not any(meets(e, alts) for _, e in evs_all):
                problems.append("missing rare event: %s" % " or ".join(alts))
        if results.count("*") > 1:
            problems.append("more than one capped game")
        ok_all = ok_all and not problems
        rows.append((stem + ".pgn", n, plies, results, evs_all, problems))
    print()
    print("%-22s %5s  %-28s %s" % ("file", "games", "plies per game", "results"))
    for name, n, plies, results, evs_all, problems in rows:
        print("%-22s %5d  %-28s %s" % (name, n, " ".join(map(str, plies)), " ".join(results)))
        for g, e in evs_all:
            if e:
                print("%-22s        game %d: %s" % ("", g, "; ".join(e)))
        for p in problems:
            print("%-22s        PROBLEM: %s" % ("", p))
    print()
    print("verification:", "all games replay, results match, rare events present" if ok_all else "FAILED")
    return ok_all


def main(argv):
    verify_only = "--verify" in argv
    args = [a for a in argv if a != "--verify"]
    outdir = args[0] if args else os.path.dirname(os.path.abspath(__file__))
    only = os.environ.get("GEN_ONLY")
    if not verify_only:
        os.makedirs(outdir, exist_ok=True)
        for stem, cls, event_name, evaluate, base_seed in VARIANTS:
            if only and stem not in only.split(","):
                continue
            path = write_file(outdir, stem, cls, event_name, evaluate, base_seed,
                              lambda s: print(s, flush=True))
            print("wrote", path, flush=True)
    if only:
        return 0
    return 0 if verify(outdir) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
