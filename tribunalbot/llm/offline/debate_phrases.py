"""The words of the jury's arguments, as data: each entry a `[a|b]` choice grammar that
arguments.say expands, so no two jurors need write the same sentence. Slots in braces are
filled by arguments.py ({name}, {quote}, {n}, {label}, {term}, {fix}, ...).
"""

from __future__ import annotations

# What a finding means to each persona: jurors see the same line through their own field.
CONSEQUENCES: dict[str, str] = {
    "security_guardian": "[an opening [for attackers|to exploit]|a door [left ajar|left "
                         "open]|attack surface|a risk [to probe|someone will probe]]",
    "performance_guru": "[a cost [on every call|per call|each time]|wasted cycles|time "
                        "[the hot path pays|lost]|a slowdown [in waiting|ahead]]",
    "test_skeptic": "[a path [no test covers|left untested]|something [unproven|never "
                    "proven]|untested ground|a claim [without a test|nobody tested]]",
    "dx_advocate": "[a trap for [the next reader|newcomers|whoever comes next]|friction "
                   "for [whoever edits it|editors]|a puzzle [for newcomers|to untangle]|"
                   "hard to follow]",
    "error_philosopher": "[a failure [waiting to happen|in waiting]|a crash [in "
                         "waiting|ahead]|a fault [with no recovery|nobody handles]|trouble "
                         "[on a bad day|later]]",
    "dependency_watcher": "[upkeep for years|a maintenance burden|debt that compounds|"
                          "a long-term cost]",
    "simplicity_zealot": "[needless weight|clutter to cut|more than it needs|excess to "
                         "trim]",
    "architect": "[a design smell|a leak across layers|a seam in the wrong place|"
                 "coupling nobody planned]",
}


# Why a claim fails for this code, by kind of flaw: a subject and a predicate, drawn apart.
SUBJECTS: dict[str, str] = {
    "rejection": "[turning down|ruling out|refusing|waving away|setting aside] [{a} |the ]"
                 "{term}",
    "abstraction": "[the {term} idea|a {term} design|the {term} route|what it calls {term}|"
                   "[that|this|all the] {term} [talk|plan|proposal]]",
    "infrastructure": "[adding|bringing in|reaching for|standing up|wiring in|introducing] "
                      "[{a} |the ]{term}",
    "rewrite": "[the {term} plan|its {term} advice|the call for {term}|talk of {term}|"
               "[a|any] {term} [now|here|for this]]",
    "model": "[the {term} idea|putting [{a} |the ]{term} in the loop|asking [{a} |the ]{term}|"
             "its {term} plan|a runtime {term} call|[leaning on|deferring to|handing this to] "
             "[{a} |the ]{term}]",
    "misplaced_fix": "[the fix it [asks for|wants|proposes|pushes]|[that|this|the] advice "
                     "to {term}|[asking|telling the author] to {term}|its [advice|fix|remedy] "
                     "for that line|[the|that|this] [remedy|repair|edit] it [proposes|wants|"
                     "asks for]|[what|the change] it [prescribes|recommends] there]",
    "dismissal": "[waving it off|calling it harmless|leaving it [as it is|alone|be]|"
                 "[that|this|the] [reassurance|all-clear|shrug|pass]|letting it [stand|ship]|"
                 "keeping it as is|[judging|ruling|declaring] it [fine|safe]]",
}


PREDICATES: dict[str, str] = {
    "rejection": "[refuses|drops|skips] the [one|very|plain] fix [that line|the code] "
                 "[has earned|needs|calls for]|leaves the [defect|bug|problem] [as it is|in "
                 "place|standing]|[ignores|overlooks] what [that line|the code] [needs|asks "
                 "for]|is [exactly|precisely] the wrong [refusal|call] [there|here]",
    "abstraction": "[only|merely|just|] [hides|buries|wraps] the [defect|bug|problem] "
                   "[behind|under|inside] [another|one more|a new] [layer|level|seam]|"
                   "[adds|stacks|brings] [a|one more] layer and [fixes|cures|changes] "
                   "[nothing|none of it]|[moves|pushes|shifts] the [problem|bug] [one level|"
                   "a layer] [down|deeper|away]|[gives|costs] the next reader [one|another] "
                   "[more|extra] [hop|jump]|is [indirection|ceremony|scaffolding] [nobody|no "
                   "one] [here|in this file] [needs|asked for]",
    "infrastructure": "[changes|fixes|touches] nothing [there|at that line|in that code]|"
                      "[buys|brings|earns] nothing for [that|it|this]|leaves the [defect|bug|"
                      "problem] [where it is|in place|untouched]|is [one|yet one] more "
                      "[thing|system|service] to [run|deploy|operate] and [watch|page on]|"
                      "is [weeks|days] of [work|plumbing] for a [local|small|one-line] "
                      "[fix|edit|change]",
    "rewrite": "[throws out|discards|bins] [working code|code that works|lines that work]|"
               "[trades|swaps|exchanges] [one|a single] [defect|bug] for [many|dozens of|a "
               "crop of|a host of|a fresh batch of] [new|fresh|other|untested] ones|[costs|"
               "takes|burns|eats] [weeks|months] where a [small|short|local|quick|modest] "
               "[edit|patch|change] [does|will do|would do|suffices]|"
               "[restarts|redoes] [work|a job] [a patch|one fix|a small edit] [would finish|"
               "could settle|would close]",
    "model": "[turns a [fixed|plain|firm] rule into|makes a [fixed|plain|firm] rule] a "
             "[guess|gamble|coin toss]|"
             "[may|can|will] [answer|reply|decide] [differently|otherwise] [for|on] [one|"
             "the same|identical] input|cannot be "
             "[tested|checked|pinned down] like the [rule|check] it [replaces|stands in "
             "for]|[adds|brings] [latency|delay|a round trip] [and|plus] [cost|a bill|a fee] "
             "to a [plain|simple|cheap] check|[makes|turns] a [cheap|plain|simple] check "
             "[slow|costly] and [billed|paid for|metered]|"
             "[hands|gives] a decision the code [can|could] make [to chance|away]|leaves "
             "[to chance|to a guess] what [the code|a rule|plain code] [settles|decides] "
             "[for sure|outright|every time]|[outsources|farms out] a [call|choice] [the code|"
             "a plain rule] [makes|settles] [alone|by itself|unaided]",
    "misplaced_fix": "[fixes|treats|cures] a [problem|defect|flaw] [that line|the line|"
                     "the code there] [does not have|never had]|[changes|alters|touches] "
                     "[code that is right|lines that are fine|what works] [there|as it is]|"
                     "[belongs|goes|applies] to [another|a different|some other] line|"
                     "[sends|points|aims] the [fix|remedy|repair] at the wrong [line|place|"
                     "spot]|[answers|targets|addresses] a [fault|defect|problem] [from|of] "
                     "[another|a different] line|[mistakes|confuses] [that|the] line for "
                     "[another|a different one]|would only [churn|disturb|alter] [sound|"
                     "working|correct] code",
    "waved": "[[is fair|sounds fair|is defensible], [yet|but|though] [the line|it|that] "
             "[still|really] [earns|deserves|wants] a [small|quick|cheap] [fix|edit]|"
             "[undersells|plays down|shrugs off|brushes aside|waves away|makes light of] a "
             "[small|minor|modest|slight] [but real|yet real|] [flaw|problem|cost|wart]|"
             "[skips|passes over|forgoes] a [cheap|quick|free] [fix|win]|"
             "is [too quick|a little quick|hasty|premature]]",
    "dismissal": "[ignores|skips over|overlooks] what the line [does|actually does]|"
                 "[leaves|keeps] a [real|live|genuine] [defect|bug|problem] in place|is the "
                 "wrong [call|verdict] [there|for that line]|[tells|asks|invites] [the author|"
                 "its author|whoever wrote it] to [keep|ship|leave in] a [bug|defect|live "
                 "fault]|[misreads|underrates|plays down] the risk",
}


GAPS: dict[str, str] = {
    "missed": "[and|yet|but] [the review|it|{name}] [never [reaches|mentions|touches|"
              "covers|gets to]|does not [reach|mention|touch|cover]] [it|that|this line]|"
              "[which|and this] [goes|passes] [unmentioned|unremarked|unflagged] [in|by] "
              "[the review|{name}|its review]|[a thing|something|a flaw] [the review|{name}] "
              "[never flags|does not flag|lets slide|lets pass]|"
              "[yet|but|and] [its|the] [words go|attention goes|effort drifts] [elsewhere|"
              "to smaller things|to lesser lines|to side issues|to minor points]|which "
              "[it|{name}|the review] [skips|"
              "passes over|leaves out|omits] [entirely|altogether|silently|]|[and|yet] "
              "[nothing|not a word|not one line|no sentence] [of|in] [it|{name}|the review] "
              "[goes|points|turns|looks] [there|that way|at it]|which [it|{name}] [leaves|"
              "hands|passes|punts] [to someone else|to others|aside|to later readers|to "
              "whoever comes next|downstream]|[and|yet|but] [{name}|it|the review] [is "
              "silent on|says nothing of|stays quiet about|keeps quiet on|ignores|skips|"
              "never names|has no word for] [it|that|this]",
    "general": "[and|but|while] [the review|it|{name}] [names|cites|points at|"
               "pins down] no [line|single line|one line] [at all|anywhere|whatsoever|in the "
               "file]|[and|but] [not one|no] line [number|] [appears|shows up] in [it|the "
               "review|{name}'s text]|[and|but] it [talks|stays] in [generalities|broad "
               "strokes] [instead|throughout]|[but|yet] nothing in it is [anchored|tied to "
               "a line]",
    "emphasis": "[and|yet|but] [it|the review] [puts|ranks|lists] [smaller|lesser|minor] "
                "[points|things|matters] [first|higher|on top]|[and|while] [the rest|the "
                "worst|what matters] [goes|stays] [unranked|unweighed|unsaid]",
    "ungrounded": "so the [claim|concern|point] has no [footing|ground|basis]|so the "
                  "[concern|worry] looks [invented|made up]|[and|so] the [line number|citation] "
                  "[just|only] [sounds|looks] [precise|exact|careful]",
    "bad_line": "so the [claim|citation] points at nothing|so whatever it [read|reviewed], "
                "it was not [this|this file]|which makes me [wonder|ask] what it "
                "[reviewed|read]|so the citation is [made up|invented]",
}


TERMS = {"rejection": "option", "abstraction": "layering", "infrastructure": "machinery",
         "rewrite": "rewrite", "model": "model", "dismissal": "all-clear",
         "misplaced_fix": "touch that line"}


OWN_FIELD = "[though|even though|when] [that is|it is|this is] [its own field|its speciality|" \
            "its beat|its turf]"


# Short lead-ins, so the advice itself (the juror's own words) carries the sentence.
# Short lead-ins, so the advice itself (the juror's own words) carries the sentence.
SHOULD = ("It [should|ought to] [say|have said]: {x}.", "Instead: {x}.", "It needed to {x}.",
          "[A fair|A sound|An honest] [review|reading]: {x}.", "[Advice that helps|Real "
          "advice]: {x}.", "The code [needs|wants|asks for] this: {x}.",
          "[Better|Sounder|Simpler] advice: {x}.", "I would {x}.", "[Better|Wiser|Safer] "
          "to {x}.", "[My advice|My fix|The fix]: {x}.", "Why not {x}?", "[Best|Fairer] to "
          "{x}.", "[I'd|I would] [rather|instead] {x}.")


# Imperatives: they follow "I would", "Better to" and a colon alike.
SHORT_FIXES = "[[make|apply|try] [a|one] [direct|plain|local|small|quick] [fix|edit|patch] " \
              "[at|on|to|for] line {n}|[patch|fix|tidy|repair|mend] line {n} [in place|" \
              "where it stands|directly|and move on|]|give line {n} a " \
              "[patch|fix|cleanup]|[touch|correct|rework] line {n} [and nothing " \
              "else|alone|only|first]]"
# ... the same, once the line has been named: a person does not cite it twice.
FIXES_THERE = "[[make|apply|try] [a|one] [direct|plain|local|small|quick] [fix|edit|patch] " \
              "[there|right there|in place]|[patch|fix|tidy|repair|mend] [it|that line|the " \
              "line] [in place|where it stands|directly|and move on|]|give [it|that line] a " \
              "[patch|fix|cleanup]|[touch|correct|rework] [it|that line|the line] [and " \
              "[nothing|no line] else|alone|only|first|and leave the rest]|[settle|sort|deal " \
              "with] [it|that line] [on the spot|locally|where it is]]"


OPENERS = ('{name} [wrote|said|told us|claimed|argued] "{quote}".',
            "{name}'s review [says|claims|argues|tells us] \"{quote}\".",
            '[Take|Consider|Look at] {name}\'s [claim|advice|point][:|,] "{quote}".',
            '"{quote}" is what {name} [told us|wrote|put forward].',
            '[Here is|Listen to|Reread] {name}: "{quote}".',
            'From {name} we [got|heard|read] "{quote}".',
            '{name} [put it|said it|framed it] [this way|like this|thus]: "{quote}".',
            '{name} [asks|wants] us to [accept|believe|take] "{quote}".')


TURNS = "[But|Yet|In fact,|Look closer:|Against that,|The code disagrees:|Actually,|Still,]"


# Each persona's way into its point: short, so the point itself carries the sentence.
LENSES: dict[str, str] = {
    "security_guardian": "[As an attacker,|Security-wise,|With attackers in mind,|From "
                         "the threat side,]",
    "performance_guru": "[Counting the cost,|By the numbers,|Cost-wise,|Measured,]",
    "test_skeptic": "[Show me proof:|Against the code,|Evidence first:|Checked,]",
    "dx_advocate": "[For the next reader,|As a newcomer,|For maintainers,|Reading it "
                   "fresh,]",
    "error_philosopher": "[Failure-wise,|When it breaks,|Thinking of failure,|On a bad "
                         "day,]",
    "dependency_watcher": "[Long-term,|Over years,|Thinking of upkeep,|For upkeep,]",
    "simplicity_zealot": "[Put simply,|Stripped down,|Plainly,|In short,]",
    "architect": "[Structurally,|Design-wise,|At the boundaries,|As design,]",
}


HEDGES = "[A [smaller|minor|small] point:|Loosely held:|Minor, but:|Not damning:|Worth a " \
         "word:|For the record,]"


FIRM = "[This is [plainly|simply|clearly] wrong.|That advice fails here.|The code settles " \
       "it.|No doubt here.|Plainly wrong.|The file disagrees.]"


VERDICTS = ("I [vote|want] {name} out", "My vote [goes to|is for|falls on] {name}",
             "{name} gets my vote", "I am going with {name}", "{name}, in my view",
             "Out with {name}", "I [pick|choose|name] {name}", "{name} has my vote",
             "[I'd|I would] [send {name} home|vote {name} out]", "{name} [should|ought to] go",
             "My [pick|choice] is {name}", "Put me down for {name}",
             "I [say|think] {name} [goes|should leave]", "[I'm|I am] voting for {name}",
             "{name} is my [pick|choice]")


STRONG_WHY = "[[it is|that is|this is] [wrong|mistaken|off] where it [matters|counts]|the " \
              "[code|file|source] [contradicts|refutes|belies] it|[that|the] advice [fails|" \
              "breaks|falls apart] [on|against] [the|this] code|[its|the] [claim|point] " \
              "[does not survive|fails] a look at the [code|file]|[anyone|a reader] can " \
              "[check|see] [it is|that it is] wrong|[what|the thing] it [gets|got] wrong " \
              "[is central|matters most]]"


WEAK_WHY = "[[I|we] [trust|believe] it [least|less]|it [fits|matches] the [code|file] " \
            "[worst|least]|[its|the] review is [thin|the thinnest|shaky]|it [left|set] " \
            "[the most|too much] [out|aside]|[no other|no] review [misses|skips] [as much|" \
            "more]|[of all of them,|of the reviews,|among them,] [this|that] one [holds up|" \
            "stands up] [worst|least]|[its|the] [reading|review] [sits|rests] [loosest|" \
            "least firmly] on the [code|file|lines]]"
