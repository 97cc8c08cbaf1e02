"""Puzzles that tests in more than one folder need, named for what they exercise."""

#: a 16x16 position (a minimal puzzle of the fill's, 128 blanks left after its first 102 steps) whose next steps need
#: a dynamic forcing chain: it needs guessing by the default rows of this size, and rates 9.1 at the full scale
NEEDS_DYNAMIC_16 = ("5EB..4.C...3.2.F..1.7E.A5..24BCDF47....B.E.C.6..2DC..G.3.1.4.8..6A3....9E......49F24...61D.8.A..18GE4"
                    "..52.......CB5.E..F4......GB2.G....74D5C...A5F32C68.91.D.47E74C..G.826F9.5BD9.1B547......F..6.2.B.."
                    "F.9...3........2C.E.6.G8.CEF.85.6.2...9......6C.3.4.E...")
