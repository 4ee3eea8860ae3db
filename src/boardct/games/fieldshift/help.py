"""The FieldShift command reference shown by `help` in the terminal."""

HELP = """\
FieldShift commands (LSTD: two digits, instruction then target; STDEX and Type-A: three
digits, instruction, operator, target; AUX may always be typed with two digits)

  LSTD  STDEX  instruction
  1o    1ab    SWC select operator o (keeps the turn) / SWP: a and b exchange sectors
               (b moves first, then a; each half is a move for overwatch and Longwatch)
  2s    2as    MOV move the operator to sector s (0-9, any distance)
  3e    3ae    HIT attack enemy operator e (in range; the Blade only in its own sector);
               with a Medic's Extend armed, 3t / 3-t revives friendly t instead
  4f    4nf    RNF put 1 (n) supply crates into facility f
  5f    5nf    WDR take 1 (n) crates back from facility f (keeps the turn)
  6o    6-o    RGP retreat a deployed operator (+1 crate) / deploy a reserve one (-1 crate)
  7o    7-o    OVW operator o watches: the next enemy moving into or out of its range is hit
  8o    8-o    SKL use operator o's skill (cooldown 5 own turns for all operators)
        8bt    Blade b assassinates enemy t / Medic m (8mt) revives friendly t at once
  9f    9-f    SPT facility f's support (0 Artillery, 1 Medbay, 2 Command center);
               with the Artillery ready, 9s shells sector s
  (- : any digit; it is ignored)

Operators: 0/5 Longwatch (range 5), 1/6 Blade (range 0), 2/7 Technician, 3/8 Medic,
4/9 Specialist (range 3; 2 under Type-A). Attack 3 (2 under Type-A).
Terrain: Ruins 0,9 (-1 damage taken, -2 range in and out), Grass 1,8 (-1 range in),
Plains 2,3,6,7, Mountains 4,5 (+1 damage dealt and taken).
Range: in range when the distance is at most the class range less the terrain penalties,
which add up; below 0 nothing is in range, not even the same sector (two range-3 operators
in the same Ruins cannot hit each other; a Longwatch there can: 5-2-2 = 1). The Blade's
range is 0 on any terrain. Overwatch fires by the same range.
Skills: Longwatch downs the next enemy that moves; Blade's next HIT moves to the target and
deals 5; Technician's Cyberwarfare bars enemy SKL, SPT and deploying for 3 turns; Medic's
Extend revives a bleeding operator with the next HIT; Specialist's next 3 HITs keep the turn.

AUX: 00 deny, 01 confirm, 02 suspend (save and leave), 03 resume a saved game,
05 request the next ruleset (LSTD -> STDEX -> Type-A), 06 dispute a rule violation,
07 good game, 08 request a draw, 09 concede.
Screen: v<n> injured, X<n> bleeding out (turns left), W on overwatch, S/S<n> skill armed.
"""
