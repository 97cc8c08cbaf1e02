"""Puzzles that tests in more than one folder need, named for what they exercise."""

#: a 16x16 position (a minimal puzzle of the fill's, 128 blanks left after its first 102 steps) whose next steps need
#: a dynamic forcing chain: it needs guessing by the default rows of this size, and rates 9.1 at the full scale
NEEDS_DYNAMIC_16 = ("5EB..4.C...3.2.F..1.7E.A5..24BCDF47....B.E.C.6..2DC..G.3.1.4.8..6A3....9E......49F24...61D.8.A..18GE4"
                    "..52.......CB5.E..F4......GB2.G....74D5C...A5F32C68.91.D.47E74C..G.826F9.5BD9.1B547......F..6.2.B.."
                    "F.9...3........2C.E.6.G8.CEF.85.6.2...9......6C.3.4.E...")

#: a 25x25 puzzle of 204 clues without conflicts and without a solution, whose search found no end in an hour (a
#: fuzzer's): what the node budget of solve, check and import is for (catalogue.config.NODE_BUDGET)
NEVER_ENDS_25 = (
    "2.J7..K..IEB...O.......H...G.N.4..HM8...5I..K1......D.M.LE..9..I.A.2.HPN.J...C1.6A.......O.7P.....MB"
    "......J.O..1.4A.E......7.E.M..4.......5....7......8.............G...........12G....K.J.9...M6.NE8.IH"
    "........P1....N....EJB76GI.N.3.....8.F.7..G5.........5LE.......6....H.N.M.I..P.........8..ED...65..2"
    "..IK...B5N...H.6..2.G........9.P.HA.E...JB....D.O.3HB..7...2.CO...8........D........E.K.BJ......M..1"
    ".F.M.8...K..EN..G...D.O.4.........P.....I..C...N....H..I.....F.....KE.8...........9.3...8H..D...F2GE"
    "M51..LH.G........E..BJ6.AO.E82....B..H..K6..GMI.3...A..3..C64.KO..N....7.....9...I5...G....O.....E.."
    ".C..6.......B.....A8.....")
