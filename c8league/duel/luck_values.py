"""The weights of the luck adjustment (``c8league.duel.luck``), per rule preset and
table size: one per feature, in the order of ``luck.FEATURE_NAMES``.

Written by ``python benchmarks/fit_luck.py --out c8league/duel/luck_values.py``
(400 self-play matches of the built-in bots per preset and table size, seed
1); do not edit by hand.
"""

from __future__ import annotations

from typing import Final

WEIGHTS: Final[dict[str, dict[int, tuple[float, ...]]]] = {
    "pagat": {
        2: (
            -0.005957,  # own drawn penalty
            -0.0102,  # own drawn penalty × progress
            0.006797,  # own drawn wild
            0.01163,  # own drawn wild × progress
            0.001499,  # own drawn special
            0.002566,  # own drawn special × progress
            0.0009586,  # own drawn playable
            0.001641,  # own drawn playable × progress
            -0.01781,  # own dealt penalty
            -0.03048,  # own dealt penalty × progress
            0.02572,  # own dealt wild
            0.04403,  # own dealt wild × progress
            0.006191,  # own dealt special
            0.0106,  # own dealt special × progress
            0.005957,  # others' drawn penalty
            0.0102,  # others' drawn penalty × progress
            -0.006797,  # others' drawn wild
            -0.01163,  # others' drawn wild × progress
            -0.001499,  # others' drawn special
            -0.002566,  # others' drawn special × progress
            -0.0009586,  # others' drawn playable
            -0.001641,  # others' drawn playable × progress
            0.01781,  # others' dealt penalty
            0.03048,  # others' dealt penalty × progress
            -0.02572,  # others' dealt wild
            -0.04403,  # others' dealt wild × progress
            -0.006191,  # others' dealt special
            -0.0106,  # others' dealt special × progress
        ),
        3: (
            -0.01705,  # own drawn penalty
            -0.02932,  # own drawn penalty × progress
            0.01565,  # own drawn wild
            0.02691,  # own drawn wild × progress
            0.001187,  # own drawn special
            0.002041,  # own drawn special × progress
            0.0008791,  # own drawn playable
            0.001512,  # own drawn playable × progress
            -0.01937,  # own dealt penalty
            -0.0333,  # own dealt penalty × progress
            0.03247,  # own dealt wild
            0.05584,  # own dealt wild × progress
            0.003099,  # own dealt special
            0.005329,  # own dealt special × progress
            0.01705,  # others' drawn penalty
            0.02932,  # others' drawn penalty × progress
            -0.01565,  # others' drawn wild
            -0.02691,  # others' drawn wild × progress
            -0.001187,  # others' drawn special
            -0.002041,  # others' drawn special × progress
            -0.0008791,  # others' drawn playable
            -0.001512,  # others' drawn playable × progress
            0.01936,  # others' dealt penalty
            0.03329,  # others' dealt penalty × progress
            -0.03247,  # others' dealt wild
            -0.05583,  # others' dealt wild × progress
            -0.003099,  # others' dealt special
            -0.005329,  # others' dealt special × progress
        ),
        4: (
            -0.00425,  # own drawn penalty
            -0.01276,  # own drawn penalty × progress
            0.004577,  # own drawn wild
            0.01374,  # own drawn wild × progress
            0.000252,  # own drawn special
            0.0007567,  # own drawn special × progress
            0.0005771,  # own drawn playable
            0.001733,  # own drawn playable × progress
            0.001459,  # own dealt penalty
            0.004381,  # own dealt penalty × progress
            0.004677,  # own dealt wild
            0.01404,  # own dealt wild × progress
            0.003298,  # own dealt special
            0.009902,  # own dealt special × progress
            0.00425,  # others' drawn penalty
            0.01276,  # others' drawn penalty × progress
            -0.004577,  # others' drawn wild
            -0.01374,  # others' drawn wild × progress
            -0.000252,  # others' drawn special
            -0.0007568,  # others' drawn special × progress
            -0.0005771,  # others' drawn playable
            -0.001733,  # others' drawn playable × progress
            -0.00146,  # others' dealt penalty
            -0.004383,  # others' dealt penalty × progress
            -0.004677,  # others' dealt wild
            -0.01404,  # others' dealt wild × progress
            -0.003298,  # others' dealt special
            -0.009902,  # others' dealt special × progress
        ),
        5: (
            -0.01188,  # own drawn penalty
            -0.01189,  # own drawn penalty × progress
            0.01307,  # own drawn wild
            0.01308,  # own drawn wild × progress
            0.001899,  # own drawn special
            0.001901,  # own drawn special × progress
            0.001589,  # own drawn playable
            0.001591,  # own drawn playable × progress
            -0.01581,  # own dealt penalty
            -0.01583,  # own dealt penalty × progress
            0.03057,  # own dealt wild
            0.0306,  # own dealt wild × progress
            0.002983,  # own dealt special
            0.002986,  # own dealt special × progress
            0.01188,  # others' drawn penalty
            0.01189,  # others' drawn penalty × progress
            -0.01307,  # others' drawn wild
            -0.01308,  # others' drawn wild × progress
            -0.001899,  # others' drawn special
            -0.001901,  # others' drawn special × progress
            -0.00159,  # others' drawn playable
            -0.001591,  # others' drawn playable × progress
            0.0158,  # others' dealt penalty
            0.01582,  # others' dealt penalty × progress
            -0.03056,  # others' dealt wild
            -0.03059,  # others' dealt wild × progress
            -0.002984,  # others' dealt special
            -0.002987,  # others' dealt special × progress
        ),
        6: (
            -0.02381,  # own drawn penalty
            0.004135,  # own drawn penalty × progress
            0.02472,  # own drawn wild
            -0.004295,  # own drawn wild × progress
            -0.001126,  # own drawn special
            0.0001957,  # own drawn special × progress
            0.003102,  # own drawn playable
            -0.0005388,  # own drawn playable × progress
            -0.01393,  # own dealt penalty
            0.002421,  # own dealt penalty × progress
            0.03257,  # own dealt wild
            -0.005657,  # own dealt wild × progress
            0.005346,  # own dealt special
            -0.0009287,  # own dealt special × progress
            0.0238,  # others' drawn penalty
            -0.004134,  # others' drawn penalty × progress
            -0.02472,  # others' drawn wild
            0.004294,  # others' drawn wild × progress
            0.001126,  # others' drawn special
            -0.0001956,  # others' drawn special × progress
            -0.003102,  # others' drawn playable
            0.0005388,  # others' drawn playable × progress
            0.01392,  # others' dealt penalty
            -0.002418,  # others' dealt penalty × progress
            -0.03256,  # others' dealt wild
            0.005655,  # others' dealt wild × progress
            -0.005347,  # others' dealt special
            0.0009288,  # others' dealt special × progress
        ),
        7: (
            -0.03494,  # own drawn penalty
            0.02966,  # own drawn penalty × progress
            0.03876,  # own drawn wild
            -0.03291,  # own drawn wild × progress
            0.002925,  # own drawn special
            -0.002483,  # own drawn special × progress
            0.001405,  # own drawn playable
            -0.001193,  # own drawn playable × progress
            -0.02405,  # own dealt penalty
            0.02042,  # own dealt penalty × progress
            0.05384,  # own dealt wild
            -0.04571,  # own dealt wild × progress
            0.004811,  # own dealt special
            -0.004085,  # own dealt special × progress
            0.03493,  # others' drawn penalty
            -0.02965,  # others' drawn penalty × progress
            -0.03875,  # others' drawn wild
            0.0329,  # others' drawn wild × progress
            -0.002926,  # others' drawn special
            0.002484,  # others' drawn special × progress
            -0.001405,  # others' drawn playable
            0.001193,  # others' drawn playable × progress
            0.02402,  # others' dealt penalty
            -0.02039,  # others' dealt penalty × progress
            -0.05381,  # others' dealt wild
            0.04569,  # others' dealt wild × progress
            -0.004812,  # others' dealt special
            0.004086,  # others' dealt special × progress
        ),
        8: (
            -0.001311,  # own drawn penalty
            -0.0107,  # own drawn penalty × progress
            0.002106,  # own drawn wild
            0.0172,  # own drawn wild × progress
            0.0005209,  # own drawn special
            0.004253,  # own drawn special × progress
            -2e-05,  # own drawn playable
            -0.0001633,  # own drawn playable × progress
            -0.002089,  # own dealt penalty
            -0.01706,  # own dealt penalty × progress
            0.004471,  # own dealt wild
            0.0365,  # own dealt wild × progress
            0.0002563,  # own dealt special
            0.002092,  # own dealt special × progress
            0.00131,  # others' drawn penalty
            0.0107,  # others' drawn penalty × progress
            -0.002106,  # others' drawn wild
            -0.01719,  # others' drawn wild × progress
            -0.000521,  # others' drawn special
            -0.004253,  # others' drawn special × progress
            1.999e-05,  # others' drawn playable
            0.0001632,  # others' drawn playable × progress
            0.002086,  # others' dealt penalty
            0.01703,  # others' dealt penalty × progress
            -0.004468,  # others' dealt wild
            -0.03648,  # others' dealt wild × progress
            -0.0002565,  # others' dealt special
            -0.002094,  # others' dealt special × progress
        ),
    },
    "basic": {
        2: (
            -0.001102,  # own drawn penalty
            -0.0149,  # own drawn penalty × progress
            0.001147,  # own drawn wild
            0.0155,  # own drawn wild × progress
            0.0,  # own drawn special
            0.0,  # own drawn special × progress
            0.0003928,  # own drawn playable
            0.00531,  # own drawn playable × progress
            -0.001125,  # own dealt penalty
            -0.01521,  # own dealt penalty × progress
            0.002682,  # own dealt wild
            0.03625,  # own dealt wild × progress
            0.0,  # own dealt special
            0.0,  # own dealt special × progress
            0.001102,  # others' drawn penalty
            0.0149,  # others' drawn penalty × progress
            -0.001147,  # others' drawn wild
            -0.0155,  # others' drawn wild × progress
            0.0,  # others' drawn special
            0.0,  # others' drawn special × progress
            -0.0003928,  # others' drawn playable
            -0.00531,  # others' drawn playable × progress
            0.001125,  # others' dealt penalty
            0.01521,  # others' dealt penalty × progress
            -0.002682,  # others' dealt wild
            -0.03625,  # others' dealt wild × progress
            0.0,  # others' dealt special
            0.0,  # others' dealt special × progress
        ),
        3: (
            -0.01145,  # own drawn penalty
            -0.01552,  # own drawn penalty × progress
            0.01209,  # own drawn wild
            0.01638,  # own drawn wild × progress
            0.0,  # own drawn special
            0.0,  # own drawn special × progress
            0.001605,  # own drawn playable
            0.002176,  # own drawn playable × progress
            -0.002801,  # own dealt penalty
            -0.003797,  # own dealt penalty × progress
            0.02555,  # own dealt wild
            0.03463,  # own dealt wild × progress
            0.0,  # own dealt special
            0.0,  # own dealt special × progress
            0.01144,  # others' drawn penalty
            0.01551,  # others' drawn penalty × progress
            -0.01209,  # others' drawn wild
            -0.01638,  # others' drawn wild × progress
            0.0,  # others' drawn special
            0.0,  # others' drawn special × progress
            -0.001605,  # others' drawn playable
            -0.002176,  # others' drawn playable × progress
            0.0028,  # others' dealt penalty
            0.003795,  # others' dealt penalty × progress
            -0.02554,  # others' dealt wild
            -0.03463,  # others' dealt wild × progress
            0.0,  # others' dealt special
            0.0,  # others' dealt special × progress
        ),
        4: (
            -0.003617,  # own drawn penalty
            0.001575,  # own drawn penalty × progress
            0.01112,  # own drawn wild
            -0.004841,  # own drawn wild × progress
            0.0,  # own drawn special
            -0.0,  # own drawn special × progress
            0.005816,  # own drawn playable
            -0.002533,  # own drawn playable × progress
            -0.009105,  # own dealt penalty
            0.003965,  # own dealt penalty × progress
            0.04769,  # own dealt wild
            -0.02077,  # own dealt wild × progress
            0.0,  # own dealt special
            -0.0,  # own dealt special × progress
            0.003616,  # others' drawn penalty
            -0.001575,  # others' drawn penalty × progress
            -0.01111,  # others' drawn wild
            0.00484,  # others' drawn wild × progress
            0.0,  # others' drawn special
            -0.0,  # others' drawn special × progress
            -0.005816,  # others' drawn playable
            0.002533,  # others' drawn playable × progress
            0.009097,  # others' dealt penalty
            -0.003962,  # others' dealt penalty × progress
            -0.04769,  # others' dealt wild
            0.02077,  # others' dealt wild × progress
            0.0,  # others' dealt special
            -0.0,  # others' dealt special × progress
        ),
        5: (
            0.0005893,  # own drawn penalty
            5.878e-05,  # own drawn penalty × progress
            0.01005,  # own drawn wild
            0.001003,  # own drawn wild × progress
            0.0,  # own drawn special
            0.0,  # own drawn special × progress
            0.001501,  # own drawn playable
            0.0001497,  # own drawn playable × progress
            -0.001119,  # own dealt penalty
            -0.0001116,  # own dealt penalty × progress
            0.02428,  # own dealt wild
            0.002422,  # own dealt wild × progress
            0.0,  # own dealt special
            0.0,  # own dealt special × progress
            -0.0005902,  # others' drawn penalty
            -5.888e-05,  # others' drawn penalty × progress
            -0.01005,  # others' drawn wild
            -0.001003,  # others' drawn wild × progress
            0.0,  # others' drawn special
            0.0,  # others' drawn special × progress
            -0.001501,  # others' drawn playable
            -0.0001497,  # others' drawn playable × progress
            0.001112,  # others' dealt penalty
            0.0001109,  # others' dealt penalty × progress
            -0.02428,  # others' dealt wild
            -0.002422,  # others' dealt wild × progress
            0.0,  # others' dealt special
            0.0,  # others' dealt special × progress
        ),
        6: (
            -0.0153,  # own drawn penalty
            0.00159,  # own drawn penalty × progress
            0.02443,  # own drawn wild
            -0.002539,  # own drawn wild × progress
            0.0,  # own drawn special
            -0.0,  # own drawn special × progress
            0.002014,  # own drawn playable
            -0.0002093,  # own drawn playable × progress
            -0.006138,  # own dealt penalty
            0.000638,  # own dealt penalty × progress
            0.02859,  # own dealt wild
            -0.002972,  # own dealt wild × progress
            0.0,  # own dealt special
            -0.0,  # own dealt special × progress
            0.01529,  # others' drawn penalty
            -0.00159,  # others' drawn penalty × progress
            -0.02442,  # others' drawn wild
            0.002539,  # others' drawn wild × progress
            0.0,  # others' drawn special
            -0.0,  # others' drawn special × progress
            -0.002014,  # others' drawn playable
            0.0002093,  # others' drawn playable × progress
            0.006129,  # others' dealt penalty
            -0.000637,  # others' dealt penalty × progress
            -0.02858,  # others' dealt wild
            0.002971,  # others' dealt wild × progress
            0.0,  # others' dealt special
            -0.0,  # others' dealt special × progress
        ),
        7: (
            -0.009232,  # own drawn penalty
            0.0001732,  # own drawn penalty × progress
            0.01728,  # own drawn wild
            -0.0003241,  # own drawn wild × progress
            0.0,  # own drawn special
            -0.0,  # own drawn special × progress
            -5.903e-05,  # own drawn playable
            1.107e-06,  # own drawn playable × progress
            0.006202,  # own dealt penalty
            -0.0001163,  # own dealt penalty × progress
            0.01679,  # own dealt wild
            -0.0003149,  # own dealt wild × progress
            0.0,  # own dealt special
            -0.0,  # own dealt special × progress
            0.009225,  # others' drawn penalty
            -0.000173,  # others' drawn penalty × progress
            -0.01727,  # others' drawn wild
            0.0003239,  # others' drawn wild × progress
            0.0,  # others' drawn special
            -0.0,  # others' drawn special × progress
            5.898e-05,  # others' drawn playable
            -1.106e-06,  # others' drawn playable × progress
            -0.006205,  # others' dealt penalty
            0.0001164,  # others' dealt penalty × progress
            -0.01679,  # others' dealt wild
            0.0003149,  # others' dealt wild × progress
            0.0,  # others' dealt special
            -0.0,  # others' dealt special × progress
        ),
        8: (
            0.0007766,  # own drawn penalty
            0.0003509,  # own drawn penalty × progress
            0.00828,  # own drawn wild
            0.003741,  # own drawn wild × progress
            0.0,  # own drawn special
            0.0,  # own drawn special × progress
            0.001362,  # own drawn playable
            0.0006155,  # own drawn playable × progress
            -0.0003783,  # own dealt penalty
            -0.0001709,  # own dealt penalty × progress
            0.01882,  # own dealt wild
            0.008505,  # own dealt wild × progress
            0.0,  # own dealt special
            0.0,  # own dealt special × progress
            -0.000779,  # others' drawn penalty
            -0.0003519,  # others' drawn penalty × progress
            -0.008278,  # others' drawn wild
            -0.00374,  # others' drawn wild × progress
            0.0,  # others' drawn special
            0.0,  # others' drawn special × progress
            -0.001362,  # others' drawn playable
            -0.0006155,  # others' drawn playable × progress
            0.0003699,  # others' dealt penalty
            0.0001671,  # others' dealt penalty × progress
            -0.01882,  # others' dealt wild
            -0.008501,  # others' dealt wild × progress
            0.0,  # others' dealt special
            0.0,  # others' dealt special × progress
        ),
    },
    "encyclopedia": {
        2: (
            -0.001767,  # own drawn penalty
            -0.01355,  # own drawn penalty × progress
            0.001888,  # own drawn wild
            0.01448,  # own drawn wild × progress
            0.0003134,  # own drawn special
            0.002403,  # own drawn special × progress
            0.0006396,  # own drawn playable
            0.004904,  # own drawn playable × progress
            0.001932,  # own dealt penalty
            0.01481,  # own dealt penalty × progress
            -0.001681,  # own dealt wild
            -0.01289,  # own dealt wild × progress
            2.11e-05,  # own dealt special
            0.0001618,  # own dealt special × progress
            0.001767,  # others' drawn penalty
            0.01355,  # others' drawn penalty × progress
            -0.001888,  # others' drawn wild
            -0.01448,  # others' drawn wild × progress
            -0.0003134,  # others' drawn special
            -0.002403,  # others' drawn special × progress
            -0.0006396,  # others' drawn playable
            -0.004904,  # others' drawn playable × progress
            -0.001932,  # others' dealt penalty
            -0.01481,  # others' dealt penalty × progress
            0.001681,  # others' dealt wild
            0.01289,  # others' dealt wild × progress
            -2.11e-05,  # others' dealt special
            -0.0001618,  # others' dealt special × progress
        ),
        3: (
            -0.01177,  # own drawn penalty
            -0.009124,  # own drawn penalty × progress
            0.01129,  # own drawn wild
            0.008747,  # own drawn wild × progress
            3.798e-05,  # own drawn special
            2.944e-05,  # own drawn special × progress
            0.004246,  # own drawn playable
            0.00329,  # own drawn playable × progress
            -0.003971,  # own dealt penalty
            -0.003078,  # own dealt penalty × progress
            0.01717,  # own dealt wild
            0.0133,  # own dealt wild × progress
            -0.002736,  # own dealt special
            -0.00212,  # own dealt special × progress
            0.01177,  # others' drawn penalty
            0.009124,  # others' drawn penalty × progress
            -0.01129,  # others' drawn wild
            -0.008747,  # others' drawn wild × progress
            -3.799e-05,  # others' drawn special
            -2.944e-05,  # others' drawn special × progress
            -0.004246,  # others' drawn playable
            -0.00329,  # others' drawn playable × progress
            0.00397,  # others' dealt penalty
            0.003076,  # others' dealt penalty × progress
            -0.01717,  # others' dealt wild
            -0.0133,  # others' dealt wild × progress
            0.002736,  # others' dealt special
            0.00212,  # others' dealt special × progress
        ),
        4: (
            -0.002215,  # own drawn penalty
            -0.002159,  # own drawn penalty × progress
            0.00139,  # own drawn wild
            0.001355,  # own drawn wild × progress
            0.0001433,  # own drawn special
            0.0001397,  # own drawn special × progress
            0.003569,  # own drawn playable
            0.00348,  # own drawn playable × progress
            0.002091,  # own dealt penalty
            0.002038,  # own dealt penalty × progress
            0.001828,  # own dealt wild
            0.001782,  # own dealt wild × progress
            -0.0008365,  # own dealt special
            -0.0008156,  # own dealt special × progress
            0.002215,  # others' drawn penalty
            0.002159,  # others' drawn penalty × progress
            -0.00139,  # others' drawn wild
            -0.001355,  # others' drawn wild × progress
            -0.0001433,  # others' drawn special
            -0.0001397,  # others' drawn special × progress
            -0.003569,  # others' drawn playable
            -0.00348,  # others' drawn playable × progress
            -0.002091,  # others' dealt penalty
            -0.002038,  # others' dealt penalty × progress
            -0.001828,  # others' dealt wild
            -0.001782,  # others' dealt wild × progress
            0.0008365,  # others' dealt special
            0.0008156,  # others' dealt special × progress
        ),
        5: (
            -0.002891,  # own drawn penalty
            0.0008043,  # own drawn penalty × progress
            0.003196,  # own drawn wild
            -0.0008889,  # own drawn wild × progress
            0.0007209,  # own drawn special
            -0.0002005,  # own drawn special × progress
            0.006897,  # own drawn playable
            -0.001918,  # own drawn playable × progress
            -0.03753,  # own dealt penalty
            0.01044,  # own dealt penalty × progress
            0.04297,  # own dealt wild
            -0.01195,  # own dealt wild × progress
            -0.001171,  # own dealt special
            0.0003257,  # own dealt special × progress
            0.002891,  # others' drawn penalty
            -0.0008042,  # others' drawn penalty × progress
            -0.003195,  # others' drawn wild
            0.0008889,  # others' drawn wild × progress
            -0.0007209,  # others' drawn special
            0.0002005,  # others' drawn special × progress
            -0.006897,  # others' drawn playable
            0.001918,  # others' drawn playable × progress
            0.0375,  # others' dealt penalty
            -0.01043,  # others' dealt penalty × progress
            -0.04295,  # others' dealt wild
            0.01195,  # others' dealt wild × progress
            0.00117,  # others' dealt special
            -0.0003253,  # others' dealt special × progress
        ),
        6: (
            -0.003659,  # own drawn penalty
            -0.0007167,  # own drawn penalty × progress
            0.004387,  # own drawn wild
            0.0008594,  # own drawn wild × progress
            -0.0002346,  # own drawn special
            -4.596e-05,  # own drawn special × progress
            0.00616,  # own drawn playable
            0.001207,  # own drawn playable × progress
            0.0004632,  # own dealt penalty
            9.073e-05,  # own dealt penalty × progress
            0.002951,  # own dealt wild
            0.0005779,  # own dealt wild × progress
            0.0006811,  # own dealt special
            0.0001334,  # own dealt special × progress
            0.003659,  # others' drawn penalty
            0.0007166,  # others' drawn penalty × progress
            -0.004387,  # others' drawn wild
            -0.0008593,  # others' drawn wild × progress
            0.0002346,  # others' drawn special
            4.596e-05,  # others' drawn special × progress
            -0.00616,  # others' drawn playable
            -0.001207,  # others' drawn playable × progress
            -0.0004638,  # others' dealt penalty
            -9.086e-05,  # others' dealt penalty × progress
            -0.00295,  # others' dealt wild
            -0.0005778,  # others' dealt wild × progress
            -0.0006811,  # others' dealt special
            -0.0001334,  # others' dealt special × progress
        ),
        7: (
            -0.006814,  # own drawn penalty
            0.0001477,  # own drawn penalty × progress
            0.006737,  # own drawn wild
            -0.000146,  # own drawn wild × progress
            5.548e-05,  # own drawn special
            -1.203e-06,  # own drawn special × progress
            0.005979,  # own drawn playable
            -0.0001296,  # own drawn playable × progress
            -0.003808,  # own dealt penalty
            8.255e-05,  # own dealt penalty × progress
            0.009122,  # own dealt wild
            -0.0001977,  # own dealt wild × progress
            -0.002129,  # own dealt special
            4.615e-05,  # own dealt special × progress
            0.006813,  # others' drawn penalty
            -0.0001477,  # others' drawn penalty × progress
            -0.006736,  # others' drawn wild
            0.000146,  # others' drawn wild × progress
            -5.551e-05,  # others' drawn special
            1.203e-06,  # others' drawn special × progress
            -0.005979,  # others' drawn playable
            0.0001296,  # others' drawn playable × progress
            0.003803,  # others' dealt penalty
            -8.244e-05,  # others' dealt penalty × progress
            -0.009117,  # others' dealt wild
            0.0001976,  # others' dealt wild × progress
            0.002129,  # others' dealt special
            -4.614e-05,  # others' dealt special × progress
        ),
        8: (
            -0.007121,  # own drawn penalty
            -0.02674,  # own drawn penalty × progress
            0.005974,  # own drawn wild
            0.02244,  # own drawn wild × progress
            -0.0004227,  # own drawn special
            -0.001587,  # own drawn special × progress
            0.0029,  # own drawn playable
            0.01089,  # own drawn playable × progress
            0.0005045,  # own dealt penalty
            0.001894,  # own dealt penalty × progress
            0.002937,  # own dealt wild
            0.01103,  # own dealt wild × progress
            -0.0008937,  # own dealt special
            -0.003356,  # own dealt special × progress
            0.00712,  # others' drawn penalty
            0.02674,  # others' drawn penalty × progress
            -0.005973,  # others' drawn wild
            -0.02243,  # others' drawn wild × progress
            0.0004227,  # others' drawn special
            0.001587,  # others' drawn special × progress
            -0.0029,  # others' drawn playable
            -0.01089,  # others' drawn playable × progress
            -0.0005057,  # others' dealt penalty
            -0.001899,  # others' dealt penalty × progress
            -0.002936,  # others' dealt wild
            -0.01102,  # others' dealt wild × progress
            0.0008937,  # others' dealt special
            0.003356,  # others' dealt special × progress
        ),
    },
    "olsen": {
        2: (
            -0.01234,  # own drawn penalty
            -0.04172,  # own drawn penalty × progress
            0.01568,  # own drawn wild
            0.05302,  # own drawn wild × progress
            0.0,  # own drawn special
            0.0,  # own drawn special × progress
            0.01075,  # own drawn playable
            0.03634,  # own drawn playable × progress
            -0.01456,  # own dealt penalty
            -0.04923,  # own dealt penalty × progress
            0.01587,  # own dealt wild
            0.05367,  # own dealt wild × progress
            0.0,  # own dealt special
            0.0,  # own dealt special × progress
            0.01234,  # others' drawn penalty
            0.04172,  # others' drawn penalty × progress
            -0.01568,  # others' drawn wild
            -0.05302,  # others' drawn wild × progress
            0.0,  # others' drawn special
            0.0,  # others' drawn special × progress
            -0.01075,  # others' drawn playable
            -0.03634,  # others' drawn playable × progress
            0.01456,  # others' dealt penalty
            0.04923,  # others' dealt penalty × progress
            -0.01587,  # others' dealt wild
            -0.05367,  # others' dealt wild × progress
            0.0,  # others' dealt special
            0.0,  # others' dealt special × progress
        ),
        3: (
            -0.04448,  # own drawn penalty
            0.01372,  # own drawn penalty × progress
            0.04503,  # own drawn wild
            -0.01389,  # own drawn wild × progress
            0.0,  # own drawn special
            -0.0,  # own drawn special × progress
            0.03654,  # own drawn playable
            -0.01127,  # own drawn playable × progress
            -0.03238,  # own dealt penalty
            0.009987,  # own dealt penalty × progress
            0.04922,  # own dealt wild
            -0.01518,  # own dealt wild × progress
            0.0,  # own dealt special
            -0.0,  # own dealt special × progress
            0.04448,  # others' drawn penalty
            -0.01372,  # others' drawn penalty × progress
            -0.04502,  # others' drawn wild
            0.01389,  # others' drawn wild × progress
            0.0,  # others' drawn special
            -0.0,  # others' drawn special × progress
            -0.03654,  # others' drawn playable
            0.01127,  # others' drawn playable × progress
            0.03237,  # others' dealt penalty
            -0.009985,  # others' dealt penalty × progress
            -0.04922,  # others' dealt wild
            0.01518,  # others' dealt wild × progress
            0.0,  # others' dealt special
            -0.0,  # others' dealt special × progress
        ),
        4: (
            -0.03156,  # own drawn penalty
            0.003145,  # own drawn penalty × progress
            0.03119,  # own drawn wild
            -0.003109,  # own drawn wild × progress
            0.0,  # own drawn special
            -0.0,  # own drawn special × progress
            0.02807,  # own drawn playable
            -0.002798,  # own drawn playable × progress
            -0.01893,  # own dealt penalty
            0.001887,  # own dealt penalty × progress
            0.03096,  # own dealt wild
            -0.003086,  # own dealt wild × progress
            0.0,  # own dealt special
            -0.0,  # own dealt special × progress
            0.03155,  # others' drawn penalty
            -0.003144,  # others' drawn penalty × progress
            -0.03118,  # others' drawn wild
            0.003108,  # others' drawn wild × progress
            0.0,  # others' drawn special
            -0.0,  # others' drawn special × progress
            -0.02807,  # others' drawn playable
            0.002798,  # others' drawn playable × progress
            0.01892,  # others' dealt penalty
            -0.001886,  # others' dealt penalty × progress
            -0.03095,  # others' dealt wild
            0.003085,  # others' dealt wild × progress
            0.0,  # others' dealt special
            -0.0,  # others' dealt special × progress
        ),
        5: (
            -0.01249,  # own drawn penalty
            -0.0008839,  # own drawn penalty × progress
            0.009674,  # own drawn wild
            0.0006847,  # own drawn wild × progress
            0.0,  # own drawn special
            0.0,  # own drawn special × progress
            0.01942,  # own drawn playable
            0.001375,  # own drawn playable × progress
            -0.02205,  # own dealt penalty
            -0.001561,  # own dealt penalty × progress
            0.03088,  # own dealt wild
            0.002186,  # own dealt wild × progress
            0.0,  # own dealt special
            0.0,  # own dealt special × progress
            0.01248,  # others' drawn penalty
            0.0008835,  # others' drawn penalty × progress
            -0.00967,  # others' drawn wild
            -0.0006844,  # others' drawn wild × progress
            0.0,  # others' drawn special
            0.0,  # others' drawn special × progress
            -0.01942,  # others' drawn playable
            -0.001375,  # others' drawn playable × progress
            0.02204,  # others' dealt penalty
            0.00156,  # others' dealt penalty × progress
            -0.03087,  # others' dealt wild
            -0.002185,  # others' dealt wild × progress
            0.0,  # others' dealt special
            0.0,  # others' dealt special × progress
        ),
        6: (
            -0.01059,  # own drawn penalty
            -0.005014,  # own drawn penalty × progress
            0.004678,  # own drawn wild
            0.002214,  # own drawn wild × progress
            0.0,  # own drawn special
            0.0,  # own drawn special × progress
            0.01977,  # own drawn playable
            0.009359,  # own drawn playable × progress
            -0.006405,  # own dealt penalty
            -0.003032,  # own dealt penalty × progress
            0.01832,  # own dealt wild
            0.008671,  # own dealt wild × progress
            0.0,  # own dealt special
            0.0,  # own dealt special × progress
            0.01059,  # others' drawn penalty
            0.005012,  # others' drawn penalty × progress
            -0.004674,  # others' drawn wild
            -0.002213,  # others' drawn wild × progress
            0.0,  # others' drawn special
            0.0,  # others' drawn special × progress
            -0.01977,  # others' drawn playable
            -0.009359,  # others' drawn playable × progress
            0.006398,  # others' dealt penalty
            0.003029,  # others' dealt penalty × progress
            -0.01831,  # others' dealt wild
            -0.008668,  # others' dealt wild × progress
            0.0,  # others' dealt special
            0.0,  # others' dealt special × progress
        ),
        7: (
            -0.006001,  # own drawn penalty
            -0.003259,  # own drawn penalty × progress
            0.002722,  # own drawn wild
            0.001478,  # own drawn wild × progress
            0.0,  # own drawn special
            0.0,  # own drawn special × progress
            0.01341,  # own drawn playable
            0.007285,  # own drawn playable × progress
            0.002615,  # own dealt penalty
            0.00142,  # own dealt penalty × progress
            0.007302,  # own dealt wild
            0.003966,  # own dealt wild × progress
            0.0,  # own dealt special
            0.0,  # own dealt special × progress
            0.005997,  # others' drawn penalty
            0.003257,  # others' drawn penalty × progress
            -0.002719,  # others' drawn wild
            -0.001477,  # others' drawn wild × progress
            0.0,  # others' drawn special
            0.0,  # others' drawn special × progress
            -0.01341,  # others' drawn playable
            -0.007285,  # others' drawn playable × progress
            -0.002617,  # others' dealt penalty
            -0.001421,  # others' dealt penalty × progress
            -0.0073,  # others' dealt wild
            -0.003965,  # others' dealt wild × progress
            0.0,  # others' dealt special
            0.0,  # others' dealt special × progress
        ),
        8: (
            -0.008711,  # own drawn penalty
            -0.003027,  # own drawn penalty × progress
            0.005658,  # own drawn wild
            0.001966,  # own drawn wild × progress
            0.0,  # own drawn special
            0.0,  # own drawn special × progress
            0.01322,  # own drawn playable
            0.004595,  # own drawn playable × progress
            -0.005709,  # own dealt penalty
            -0.001984,  # own dealt penalty × progress
            0.01514,  # own dealt wild
            0.005263,  # own dealt wild × progress
            0.0,  # own dealt special
            0.0,  # own dealt special × progress
            0.008703,  # others' drawn penalty
            0.003024,  # others' drawn penalty × progress
            -0.00565,  # others' drawn wild
            -0.001964,  # others' drawn wild × progress
            0.0,  # others' drawn special
            0.0,  # others' drawn special × progress
            -0.01322,  # others' drawn playable
            -0.004595,  # others' drawn playable × progress
            0.0057,  # others' dealt penalty
            0.001981,  # others' dealt penalty × progress
            -0.01514,  # others' dealt wild
            -0.00526,  # others' dealt wild × progress
            0.0,  # others' dealt special
            0.0,  # others' dealt special × progress
        ),
    },
    "countdown": {
        2: (
            -0.02824,  # own drawn penalty
            -0.0,  # own drawn penalty × progress
            0.02256,  # own drawn wild
            0.0,  # own drawn wild × progress
            0.00384,  # own drawn special
            0.0,  # own drawn special × progress
            0.004709,  # own drawn playable
            0.0,  # own drawn playable × progress
            -0.09777,  # own dealt penalty
            -0.0,  # own dealt penalty × progress
            0.09233,  # own dealt wild
            0.0,  # own dealt wild × progress
            0.006692,  # own dealt special
            0.0,  # own dealt special × progress
            0.02824,  # others' drawn penalty
            0.0,  # others' drawn penalty × progress
            -0.02256,  # others' drawn wild
            -0.0,  # others' drawn wild × progress
            -0.00384,  # others' drawn special
            -0.0,  # others' drawn special × progress
            -0.004709,  # others' drawn playable
            -0.0,  # others' drawn playable × progress
            0.09777,  # others' dealt penalty
            0.0,  # others' dealt penalty × progress
            -0.09233,  # others' dealt wild
            -0.0,  # others' dealt wild × progress
            -0.006692,  # others' dealt special
            -0.0,  # others' dealt special × progress
        ),
        3: (
            -0.01054,  # own drawn penalty
            -0.0,  # own drawn penalty × progress
            0.0128,  # own drawn wild
            0.0,  # own drawn wild × progress
            0.00323,  # own drawn special
            0.0,  # own drawn special × progress
            0.0002554,  # own drawn playable
            0.0,  # own drawn playable × progress
            -0.05252,  # own dealt penalty
            -0.0,  # own dealt penalty × progress
            0.03541,  # own dealt wild
            0.0,  # own dealt wild × progress
            0.0138,  # own dealt special
            0.0,  # own dealt special × progress
            0.01054,  # others' drawn penalty
            0.0,  # others' drawn penalty × progress
            -0.0128,  # others' drawn wild
            -0.0,  # others' drawn wild × progress
            -0.00323,  # others' drawn special
            -0.0,  # others' drawn special × progress
            -0.0002554,  # others' drawn playable
            -0.0,  # others' drawn playable × progress
            0.05251,  # others' dealt penalty
            0.0,  # others' dealt penalty × progress
            -0.03541,  # others' dealt wild
            -0.0,  # others' dealt wild × progress
            -0.01379,  # others' dealt special
            -0.0,  # others' dealt special × progress
        ),
        4: (
            -0.02371,  # own drawn penalty
            -0.0,  # own drawn penalty × progress
            0.02275,  # own drawn wild
            0.0,  # own drawn wild × progress
            0.002632,  # own drawn special
            0.0,  # own drawn special × progress
            0.002966,  # own drawn playable
            0.0,  # own drawn playable × progress
            -0.03135,  # own dealt penalty
            -0.0,  # own dealt penalty × progress
            0.04951,  # own dealt wild
            0.0,  # own dealt wild × progress
            0.00882,  # own dealt special
            0.0,  # own dealt special × progress
            0.02371,  # others' drawn penalty
            0.0,  # others' drawn penalty × progress
            -0.02275,  # others' drawn wild
            -0.0,  # others' drawn wild × progress
            -0.002632,  # others' drawn special
            -0.0,  # others' drawn special × progress
            -0.002966,  # others' drawn playable
            -0.0,  # others' drawn playable × progress
            0.03133,  # others' dealt penalty
            0.0,  # others' dealt penalty × progress
            -0.0495,  # others' dealt wild
            -0.0,  # others' dealt wild × progress
            -0.00882,  # others' dealt special
            -0.0,  # others' dealt special × progress
        ),
        5: (
            -0.02417,  # own drawn penalty
            -0.0,  # own drawn penalty × progress
            0.02262,  # own drawn wild
            0.0,  # own drawn wild × progress
            0.0005734,  # own drawn special
            0.0,  # own drawn special × progress
            4.228e-05,  # own drawn playable
            0.0,  # own drawn playable × progress
            -0.01879,  # own dealt penalty
            -0.0,  # own dealt penalty × progress
            0.01882,  # own dealt wild
            0.0,  # own dealt wild × progress
            0.007006,  # own dealt special
            0.0,  # own dealt special × progress
            0.02417,  # others' drawn penalty
            0.0,  # others' drawn penalty × progress
            -0.02262,  # others' drawn wild
            -0.0,  # others' drawn wild × progress
            -0.0005734,  # others' drawn special
            -0.0,  # others' drawn special × progress
            -4.228e-05,  # others' drawn playable
            -0.0,  # others' drawn playable × progress
            0.01877,  # others' dealt penalty
            0.0,  # others' dealt penalty × progress
            -0.01881,  # others' dealt wild
            -0.0,  # others' dealt wild × progress
            -0.007006,  # others' dealt special
            -0.0,  # others' dealt special × progress
        ),
        6: (
            0.00396,  # own drawn penalty
            0.0,  # own drawn penalty × progress
            0.0005025,  # own drawn wild
            0.0,  # own drawn wild × progress
            0.0007856,  # own drawn special
            0.0,  # own drawn special × progress
            0.001255,  # own drawn playable
            0.0,  # own drawn playable × progress
            0.002582,  # own dealt penalty
            0.0,  # own dealt penalty × progress
            0.0171,  # own dealt wild
            0.0,  # own dealt wild × progress
            -8.224e-05,  # own dealt special
            -0.0,  # own dealt special × progress
            -0.00396,  # others' drawn penalty
            -0.0,  # others' drawn penalty × progress
            -0.0005026,  # others' drawn wild
            -0.0,  # others' drawn wild × progress
            -0.0007856,  # others' drawn special
            -0.0,  # others' drawn special × progress
            -0.001255,  # others' drawn playable
            -0.0,  # others' drawn playable × progress
            -0.002584,  # others' dealt penalty
            -0.0,  # others' dealt penalty × progress
            -0.0171,  # others' dealt wild
            -0.0,  # others' dealt wild × progress
            8.229e-05,  # others' dealt special
            0.0,  # others' dealt special × progress
        ),
        7: (
            -0.01027,  # own drawn penalty
            -0.0,  # own drawn penalty × progress
            0.01495,  # own drawn wild
            0.0,  # own drawn wild × progress
            0.004565,  # own drawn special
            0.0,  # own drawn special × progress
            0.0001301,  # own drawn playable
            0.0,  # own drawn playable × progress
            0.008386,  # own dealt penalty
            0.0,  # own dealt penalty × progress
            0.01309,  # own dealt wild
            0.0,  # own dealt wild × progress
            0.01133,  # own dealt special
            0.0,  # own dealt special × progress
            0.01027,  # others' drawn penalty
            0.0,  # others' drawn penalty × progress
            -0.01495,  # others' drawn wild
            -0.0,  # others' drawn wild × progress
            -0.004565,  # others' drawn special
            -0.0,  # others' drawn special × progress
            -0.0001301,  # others' drawn playable
            -0.0,  # others' drawn playable × progress
            -0.008387,  # others' dealt penalty
            -0.0,  # others' dealt penalty × progress
            -0.01309,  # others' dealt wild
            -0.0,  # others' dealt wild × progress
            -0.01133,  # others' dealt special
            -0.0,  # others' dealt special × progress
        ),
        8: (
            -0.0108,  # own drawn penalty
            -0.0,  # own drawn penalty × progress
            0.01528,  # own drawn wild
            0.0,  # own drawn wild × progress
            0.001598,  # own drawn special
            0.0,  # own drawn special × progress
            -0.0004689,  # own drawn playable
            -0.0,  # own drawn playable × progress
            -0.001072,  # own dealt penalty
            -0.0,  # own dealt penalty × progress
            0.003733,  # own dealt wild
            0.0,  # own dealt wild × progress
            0.007504,  # own dealt special
            0.0,  # own dealt special × progress
            0.0108,  # others' drawn penalty
            0.0,  # others' drawn penalty × progress
            -0.01528,  # others' drawn wild
            -0.0,  # others' drawn wild × progress
            -0.001598,  # others' drawn special
            -0.0,  # others' drawn special × progress
            0.0004689,  # others' drawn playable
            0.0,  # others' drawn playable × progress
            0.001069,  # others' dealt penalty
            0.0,  # others' dealt penalty × progress
            -0.003731,  # others' dealt wild
            -0.0,  # others' dealt wild × progress
            -0.007504,  # others' dealt special
            -0.0,  # others' dealt special × progress
        ),
    },
}
