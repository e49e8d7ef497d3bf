"""Stage 5 of :mod:`vision.recogniser`: each chosen piece named, its colour (and
heart) read under the frame's light (see :mod:`vision.colour`), as the tiles and
tokens recognition hands out.

Also where the faces' colour masks are learnt (built once, with :class:`Naming`), and
so where the pieces of a set coloured in a frame round its edge are cut
(:attr:`Naming.framed`, which the cuts use too).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from companion.bitenight.tiles import Tile
from vision.colour import (
    EDGE_COLOUR_MAX,
    POOR_FIT,
    FrameColours,
    beyond_margin,
    chroma_faces,
    colour_mask,
    grown_zoom,
    kelvin_gains,
    laid_faces,
    rim_colour_share,
    told_by_brightness,
    upright,
)
from vision.config import VisionConfig
from vision.model import AppearanceModel, band_pass, structure_vectors
from vision.outlines import face_ground_reach
from vision.pieces import Scored, scaled_quad
from vision.rectify import Pyramid, patch_mask
from vision.results import RejectedCandidate, TileDetection, TokenDetection
from vision.scoring import CLEAR_LEAD, Scoring
from vision.token_rows import as_the_rules_allow

#: A round figure looks the same turned where its structure matches itself this well.
_ALIKE = 0.9
#: A square figure looks the same turned by a quarter (or a half) where its structure,
#: slid by up to :data:`_SLIDE` pixels of a 40 px patch (as alignment slides a cut to
#: the template it is tried against), matches itself as well as a clear match
#: (``sure_tile_min``, 0.8): a garlic's bulb (stamp, mosaic 0.81-0.89 a quarter off), a
#: coffin turned by a half (0.83-0.93), a bulb on a band (banner 0.83 by a half); a
#: maiden, a monk or a vampire stay under 0.72.
_SLIDE = 3
#: A square piece is read in a turn other than structure's only where its heart shows
#: there clearly: the heart's face fits the window by this much (the twins' errors' share,
#: see :meth:`Naming.turned_alike`) better than its plain twin. A plain tile's corners
#: compared in its other alike turns came to -0.08 at worst (checked cloths, stripes, a
#: band), a heart in its true turn a quarter or a half from structure's to -0.2 to -0.44
#: (check styles, hard photos, seeds 7 and 2024).
SQUARE_TURN_HEART_ODDS = 0.1
#: A tile's heart counts as read surely (it adds no doubt to its confidence) once its
#: member beats its heart twin by this share of their errors where the two differ
#: (:meth:`Naming.heart_margin`). Of 595 hearts read right on the hard photos of runes
#: and stamp, 10 % won by under 0.45 and 5 % by under 0.35; runes seed 2024 #19's heart,
#: read plain, won by 0.40 and was reported at 1.00.
HEART_CLEAR = 0.5
#: A piece read as a tile is no tile where under this share of its variation is colour,
#: as a share of its face's (:meth:`vision.colour.FrameColours.colour_shown`): every tile
#: is one of five colours, but a die's pips or the deposit mat's print may fit a face's
#: figure in grey. Of the 32,315 tiles read right on the hard photos of 52 styles, the
#: few set and the real level, none showed under 0.3 (a yellow tile on ring's pale
#: ground 0.31, blue hatching at the real level 0.35); on the empty tables two white dice
#: read as tiles showed 0.02 (sticker and rosary, seed 2024 #5), one of the mat's grey
#: moons read as a blue tile 0.18 (moonrise #3; the other, 0.23, is still read).
COLOUR_SHOWN_MIN = 0.2
#: A tile whose motif and heart are close calls is still reported (with its low
#: confidence) where its colour beats every other colour by this share of their errors,
#: its heart twin left out (:meth:`Naming.surely_a_tile`): the share at which a colour
#: adds no doubt to a confidence (:func:`_confidence`).
COLOUR_CLEAR = 1 / 3
#: Of two pieces read as one tile, the less sure keeps it where it shows the tile's
#: heart (or its lack) by this much more (:meth:`Naming.heart_margin`, -1..1) than the
#: surer: 0.2 and 0.35 kept every tile, 0 lost four (:meth:`Naming._heart_shown_first`).
TWIN_CLEARER = 0.2
#: The other turns a square piece read plain is looked at for a heart (its figure allows
#: only quarter turns; see :meth:`Naming.heart_margin`).
SQUARE_HEART_TURNS = [90.0, 180.0, 270.0]
#: ...and a round piece: any turn, in steps small enough that the pair's shifts
#: (:data:`vision.colour.PAIR_SHIFTS`) reach the heart at the step's middle. A round
#: garlic's short spike lets structure turn it 30-90° off (hatch seed 7 #6 and #7, ring
#: seed 7 #8, pinwheel seed 2024 #8: heart twins read plain at 0.6-0.93); their hearts
#: showed in some other turn by 0.36-0.80 of the twins' errors, the 117 plain round tiles
#: read right on photos of hatch, pinwheel, ring, whorl, sticker, orbit and coins by
#: 0.23 at most (median 0.05). Of those five confident wrong hearts, four now have their
#: confidence capped under 0.7; of the 105 right ones capped at 0.7 or more, one.
ROUND_HEART_TURNS = [float(turn) for turn in range(15, 360, 15)]
#: A piece read as a token's face is the back where the back's misfit of its colours is
#: at most this share of the best face's (:meth:`Naming.backs_by_colour`).
_BACK_CLEARLY = 0.5


class Naming:
    """Names chosen pieces as tiles and tokens under the frame's light; built once from
    the model."""

    def __init__(
        self,
        model: AppearanceModel,
        config: VisionConfig,
        token_groups: np.ndarray,
        round_tiles: bool,
    ) -> None:
        self.model = model
        self.config = config
        self.token_groups = token_groups
        # one array of faces per group, shared by its pieces (the colour stage reduces
        # each array once and remembers it)
        self.member_faces = {
            g: model.colour_templates[list(members)] for g, members in enumerate(model.groups)
        }
        self.alike_turns = _alike_turns(model, token_groups, config)
        #: Square tile groups' quarter turns that structure cannot tell from none
        #: (:func:`_alike_quarter_turns`).
        self.alike_quarters = _alike_quarter_turns(model, config)
        self.heart_twins = _heart_twins(model)
        #: The token faces' group and the back's, and their faces with the back last, one
        #: array shared by every frame (the colour stage remembers faces by their array);
        #: None for a set without both (:meth:`backs_by_colour`).
        self.faces_and_back: tuple[int, int, np.ndarray] | None = None
        if "token" in model.group_names and "token-back" in model.group_names:
            faces, back = model.group_names.index("token"), model.group_names.index("token-back")
            both = np.concatenate([self.member_faces[faces], self.member_faces[back]])
            self.faces_and_back = (faces, back, both)
        # tokens and round tiles are cut as discs, square tiles as squares
        shaped = token_groups | round_tiles
        self.colour_masks = {
            round_: colour_mask(
                [self.member_faces[g] for g in np.flatnonzero(shaped == round_)],
                round_,
                config.patch_px,
            )
            for round_ in (False, True)
        }
        #: Each square tile group's faces as chroma under every lamp of the config, by
        #: which a piece's colour says how it is turned (see
        #: :func:`vision.doubts.turned_by_colour`).
        lamps = np.array([np.ones(3), *(kelvin_gains(k) for k in config.illuminant_kelvins)])
        self.turn_chroma = {
            g: chroma_faces(self.member_faces[g], lamps, self.colour_masks[False])
            for g in range(len(model.groups))
            if not shaped[g]
        }
        #: Pieces of a set coloured in a frame round the edge are cut outside the frame,
        #: which lies where the faces' ground ends (0: not framed).
        self.framed = {
            round_: face_ground_reach(
                np.concatenate([self.member_faces[g] for g in np.flatnonzero(shaped == round_)]),
                round_,
            )
            if not np.array_equal(mask, patch_mask(config.patch_px, round_))
            else 0.0
            for round_, mask in self.colour_masks.items()
        }
        #: Whether a shape's colour mask reaches nearer its edge than the standard one: the
        #: set carries its colour at the edge, where a photo mixes it with what lies beyond
        #: (see :func:`vision.colour.edge_mixed_residuals`). Learnt from the tile set.
        self.edge_coloured = {
            round_: not np.array_equal(mask, patch_mask(config.patch_px, round_))
            for round_, mask in self.colour_masks.items()
        }
        #: Each group whose colour lies in the rim a cut too small loses
        #: (:func:`vision.colour.rim_colour_share`): its faces laid at each growth of a
        #: cut (:func:`vision.colour.laid_faces`), to find its pieces cut too small.
        self.laid = {
            g: laid_faces(self.member_faces[g], self.colour_masks[bool(shaped[g])])
            for g in range(len(model.groups))
            if self.edge_coloured[bool(shaped[g])]
            and rim_colour_share(
                self.member_faces[g], self.colour_masks[bool(shaped[g])], bool(shaped[g])
            )
            > EDGE_COLOUR_MAX
        }

    def colour(
        self,
        chosen: list[Scored],
        scoring: Scoring,
        beyond: list[np.ndarray | None] | None = None,
        least_side: float = 0.0,
    ) -> tuple[list[TileDetection], list[TokenDetection], list[RejectedCandidate], np.ndarray]:
        """The chosen pieces named under the frame's light: its tiles and tokens, the
        pieces read too unsurely to report, or tiles smaller than ``least_side`` (see
        :meth:`vision.scoring.Scoring.least_tile_side`), as rejected, and the light's
        gains. How clearly each piece's kind leads the next (``scoring``'s lead) goes
        into its confidence. ``beyond`` (optional, one per piece): each piece cut wider
        as cut (see :meth:`wider_cuts`), for the sets whose colour lies at the edge."""
        model = self.model
        tiles: list[TileDetection] = []
        unsure: list[RejectedCandidate] = []
        tokens: list[TokenDetection] = []
        unsure_tokens: list[TokenDetection] = []
        if not chosen:
            return tiles, tokens, [], np.ones(3)
        masks = self.colour_masks
        chosen = list(chosen)  # a face whose colours are the back's is turned over below
        gains = np.ones(3)
        results: dict[int, tuple[int, float]] = {}
        where_of: dict[int, tuple[FrameColours, int]] = {}
        tiles_lamp = None
        for round_ in (False, True):  # square tiles first: they may set the tokens' lamp
            subset = [i for i, s in enumerate(chosen) if s.candidate.round == round_]
            if not subset:
                continue
            patches = [upright(chosen[i].patch, chosen[i].turn) for i in subset]
            members = [self.member_faces[chosen[i].group] for i in subset]
            around = None
            if beyond is not None and self.edge_coloured[round_]:
                around = [
                    None if beyond[i] is None else upright(beyond[i], chosen[i].turn)
                    for i in subset
                ]
            frame = FrameColours(
                patches,
                members,
                masks[round_],
                beyond=around,
                twins=[self.heart_twins[chosen[i].group] for i in subset],
                **self.lamp_inputs([chosen[i] for i in subset], tiles_lamp),
            )
            gains = frame.gains
            if frame.led:
                tiles_lamp = gains
            where = {i: (frame, k) for k, i in enumerate(subset)}
            if round_:
                where.update(self.turned_alike(chosen, subset, frame, masks[round_]))
            else:
                where.update(
                    self.turned_alike(
                        chosen,
                        subset,
                        frame,
                        masks[round_],
                        self.alike_quarters,
                        SQUARE_TURN_HEART_ODDS,
                    )
                )
            backs = self.backs_by_colour(chosen, subset, frame.gains) if round_ else {}
            for i, clarity in backs.items():
                chosen[i] = self.as_back(chosen[i])
                results[i] = (0, clarity)
            for i in subset:
                if i in backs:
                    continue
                results[i] = where[i][0].decide(where[i][1])
                if self.is_plain_token(chosen[i], *where[i]):
                    results[i] = (where[i][0].plain_member(where[i][1]), results[i][1])
                elif scoring.is_token(chosen[i]):
                    frame_of, k = where[i]
                    told = told_by_brightness(
                        frame_of.residuals[k], frame_of.pinned[k], results[i][0]
                    )
                    results[i] = (told, results[i][1])
            self.settle_duplicates(chosen, subset, where, results, scoring)
            where_of.update(where)
        repeated = _repeated_reads(model, chosen, results, scoring)

        def colour_shown(i: int, member: int) -> float:
            frame_of, k = where_of[i]
            return frame_of.colour_shown(k, member)

        for i, s in enumerate(chosen):
            member, clarity = results[i]
            label = model.labels[model.groups[s.group][member]]
            lead = scoring.lead(s)
            confidence = _confidence(s.score, lead, clarity)
            c = s.candidate
            # a clear tile whose heart (or colour) is a close call is still a tile: it
            # is reported with its likelier twin and its low confidence, as a tile is
            # easier to correct than to add
            clear_tile = (
                label.tile is not None
                and s.score >= self.config.sure_tile_min
                and (lead >= CLEAR_LEAD or self.surely_a_tile(s, *where_of[i], member, scoring))
            )
            if confidence < self.config.accept_confidence_min and label.tile is None:
                # a token read unsurely may still lie in a row's middle or at its end
                # (see below): it keeps what it was read as
                unsure_tokens.append(
                    TokenDetection(
                        label.token_colour, not label.token_back, c.center, c.polygon(), confidence
                    )
                )
            elif confidence < self.config.accept_confidence_min and not clear_tile:
                # wrong more often than right (measured): a person fixes a gap more
                # easily than a tile that is not there
                reason = f"unsure ({confidence:.2f})"
                unsure.append(RejectedCandidate(c.center, c.polygon(), reason))
            elif i in repeated:
                # a unique tile read twice, or a print: see _repeated_reads
                unsure.append(RejectedCandidate(c.center, c.polygon(), repeated[i]))
            elif label.tile is not None and c.side < least_side:
                reason = f"too small for the frame ({c.side:.0f} px)"
                unsure.append(RejectedCandidate(c.center, c.polygon(), reason))
            elif label.tile is not None and (shown := colour_shown(i, member)) < COLOUR_SHOWN_MIN:
                reason = f"no colour ({shown:.2f} of its face's)"
                unsure.append(RejectedCandidate(c.center, c.polygon(), reason))
            elif label.tile is not None:
                # whether it is a tile was settled above; how surely its heart was read
                # only lowers what is reported (a tile is easier to correct than to add)
                heart = self.heart_margin(s, *where_of[i], member)
                reported = _confidence(s.score, lead, clarity, heart)
                tiles.append(TileDetection(label.tile, c.center, c.polygon(), reported))
            else:
                tokens.append(
                    TokenDetection(
                        colour=label.token_colour,
                        face_up=not label.token_back,
                        center=c.center,
                        polygon=c.polygon(),
                        confidence=confidence,
                    )
                )
        tiles, tossed = _tosses_kept_by_surer(tiles)
        unsure += tossed
        tokens, turned_down = as_the_rules_allow(
            tokens, unsure_tokens, self.config.row_middle_face_min
        )
        unsure += [RejectedCandidate(t.center, t.polygon, why) for t, why in turned_down]
        tiles.sort(key=lambda t: (t.center[1], t.center[0]))
        tokens.sort(key=lambda t: (t.center[1], t.center[0]))
        return tiles, tokens, unsure, gains

    def backs_by_colour(
        self, chosen: list[Scored], subset: list[int], gains: np.ndarray
    ) -> dict[int, float]:
        """The token faces among ``subset`` (indices in ``chosen``) whose colours the
        back explains better than any face, under the frame's ``gains``, each with how
        clearly (the colour's clarity, as :meth:`FrameColours.decide` gives it).

        A 30 px token seen through a photo's blur keeps its colours but little of its
        art, and structure then takes a back for a face whose ground is of the back's
        shade (``cookie``: a plain biscuit back read as a yellow-iced face by a
        structure margin of 0.49, at 0.95; to a person the orange-tan biscuit and the
        bright yellow icing are plainly two things). Fitted as the colour stage fits a
        face, the back explained each of cookie's nine backs so misread at 0.16-0.36
        of the best face's misfit; of the faces read right on the hard photos of the
        48 styles' token rows, none under 1.01 (banner). Only a back that explains a
        piece clearly better (:data:`_BACK_CLEARLY`) turns it over: structure already
        chose between the sides where they tie (:mod:`vision.token_sides`), and a
        close colour fit is no reason to overrule it."""
        if self.faces_and_back is None:
            return {}
        faces_group, _, templates = self.faces_and_back
        faces = [i for i in subset if chosen[i].group == faces_group]
        if not faces:
            return {}
        patches = [upright(chosen[i].patch, chosen[i].turn) for i in faces]
        fitted = FrameColours(
            patches, [templates] * len(faces), self.colour_masks[True], gains=gains
        )
        backs: dict[int, float] = {}
        for k, i in enumerate(faces):
            face, back = float(fitted.residuals[k, :-1].min()), float(fitted.residuals[k, -1])
            if back < _BACK_CLEARLY * face:
                backs[i] = (face - back) / max(face + back, 1e-9)
        return backs

    def as_back(self, s: Scored) -> Scored:
        """Token face ``s`` read as the back instead, the face its runner-up (for a set
        with both, :attr:`faces_and_back`)."""
        assert self.faces_and_back is not None
        return replace(s, match=replace(s.match, group=self.faces_and_back[1], runner=s.group))

    def misfits(self, chosen: list[Scored], readings: list[Scored]) -> np.ndarray:
        """How badly each of ``readings`` (pieces of ``chosen``, or those pieces read
        again) fits the best-fitting colour of its own motif: the share of its variance
        its member's face leaves unexplained, under the lamp ``chosen`` give (as
        :meth:`colour` estimates it, but without the edge-mixed fit)."""
        out = np.full(len(readings), np.nan)
        if not readings:
            return out
        tiles_lamp = None
        for round_ in (False, True):
            subset = [s for s in chosen if s.candidate.round == round_]
            wanted = [k for k, r in enumerate(readings) if r.candidate.round == round_]
            if not subset or (round_ and not wanted):  # the square lamp may serve tokens
                continue
            lamp = FrameColours(
                [upright(s.patch, s.turn) for s in subset],
                [self.member_faces[s.group] for s in subset],
                self.colour_masks[round_],
                **self.lamp_inputs(subset, tiles_lamp),
            )
            if lamp.led:
                tiles_lamp = lamp.gains
            if not wanted:
                continue
            asked = FrameColours(
                [upright(readings[k].patch, readings[k].turn) for k in wanted],
                [self.member_faces[readings[k].group] for k in wanted],
                self.colour_masks[round_],
                gains=lamp.gains,
            )
            out[wanted] = asked.residuals.min(axis=1)
        return out

    def lamp_inputs(self, pieces: list[Scored], tiles_lamp: np.ndarray | None) -> dict[str, Any]:
        """What :class:`FrameColours` learns the lamp of ``pieces`` (of one shape) from:
        each piece's say, its structure score, the tiles leading (see its ``leaders``);
        tokens with no tile of their shape take ``tiles_lamp``, the lamp the square tiles
        led (None: learnt from the tokens). A square set's tokens are round: alone in
        their frame they would learn the lamp from their edges too."""
        tiles = ~self.token_groups[[s.group for s in pieces]]
        if tiles_lamp is not None and not tiles.any():
            return {"gains": tiles_lamp}
        return {
            "kelvins": self.config.illuminant_kelvins,
            "weights": np.array([max(s.score, 0.05) for s in pieces]),
            "leaders": tiles,
        }

    def wider_cuts(self, chosen: list[Scored], pyramid: Pyramid) -> list[np.ndarray | None] | None:
        """Each piece of a shape whose colour lies at the edge (:attr:`edge_coloured`) cut
        :data:`vision.colour.BEYOND_MARGIN` wider each way (None for the others), for
        :meth:`colour`; None where no piece needs it."""
        wanted = [i for i, s in enumerate(chosen) if self.edge_coloured[s.candidate.round]]
        if not wanted:
            return None
        cuts = self._wide_cuts([chosen[i].candidate.quad for i in wanted], pyramid)
        out: list[np.ndarray | None] = [None] * len(chosen)
        for k, i in enumerate(wanted):
            out[i] = cuts[k]
        return out

    def _wide_cuts(self, quads: list[np.ndarray], pyramid: Pyramid) -> list[np.ndarray]:
        """Each of ``quads`` cut :func:`vision.colour.beyond_margin` wider each way."""
        size = self.config.patch_px
        wide = size + 2 * beyond_margin(size)
        grown = [scaled_quad(np.asarray(q, np.float64), wide / size) for q in quads]
        return pyramid.rectify_many(grown, wide)

    def cut_to_their_faces(
        self, chosen: list[Scored], pyramid: Pyramid
    ) -> tuple[list[Scored], list[np.ndarray | None] | None]:
        """The pieces, those of a shape whose colour lies at the edge (:attr:`edge_coloured`)
        cut again where their faces lie larger than their cut (:func:`grown_zoom`), and
        each one's wider cut (:meth:`wider_cuts`), for :meth:`colour`."""
        beyond = self.wider_cuts(chosen, pyramid)
        if beyond is None:
            return chosen, None
        out, grown = list(chosen), []
        for i, s in enumerate(chosen):
            if beyond[i] is None or s.group not in self.laid:
                continue
            zoom = grown_zoom(upright(beyond[i], s.turn), *self.laid[s.group])
            if zoom > 1.0:
                grown.append((i, scaled_quad(np.asarray(s.candidate.quad, np.float64), zoom)))
        if not grown:
            return chosen, beyond
        quads = [quad for _, quad in grown]
        patches = pyramid.rectify_many(quads, self.config.patch_px)
        wider = self._wide_cuts(quads, pyramid)
        for k, (i, quad) in enumerate(grown):
            # the grown quad is the piece's outline from now on: reported and drawn
            candidate = replace(chosen[i].candidate, quad=quad)
            out[i] = replace(chosen[i], candidate=candidate, patch=patches[k])
            beyond[i] = wider[k]
        return out, beyond

    def settle_duplicates(
        self,
        chosen: list[Scored],
        subset: list[int],
        where: dict[int, tuple[FrameColours, int]],
        results: dict[int, tuple[int, float]],
        scoring: Scoring,
    ) -> None:
        """Every Moon tile is unique: where two pieces read as the same tile, the less
        clear one takes its next best face that is not already on the table."""
        model = self.model
        excluded: dict[int, set[int]] = {i: set() for i in subset}
        for _ in range(3):
            clashes = [
                ids
                for ids in _tile_holders(model, chosen, subset, results, scoring)
                if len(ids) > 1
            ]
            if not clashes:
                return
            for ids in clashes:
                for i in self._heart_shown_first(chosen, where, results, ids)[1:]:
                    excluded[i].add(results[i][0])
                    if len(excluded[i]) >= len(model.groups[chosen[i].group]):
                        continue
                    frame, k = where[i]
                    results[i] = frame.decide(k, frozenset(excluded[i]))

    def _heart_shown_first(
        self,
        chosen: list[Scored],
        where: dict[int, tuple[FrameColours, int]],
        results: dict[int, tuple[int, float]],
        ids: list[int],
    ) -> list[int]:
        """The pieces of a clash (``ids``, the surest first), with the second first where
        it is a pair read as a tile with a heart twin and the second shows that tile's
        heart (or its lack) :data:`TWIN_CLEARER` more clearly than the first
        (:meth:`heart_margin`).

        Two pieces read as one tile are most often that tile and its twin, and only the
        heart tells them apart; which is surer overall (structure, lead, colour) says
        nothing about it, so the heart swapped on both (``bottlecap`` seed 2024 #10,
        ``clock`` seed 2024 #19). Over every set: as rendered +7 tiles (those two photos
        two each, wax three), real level +1, none lost, no false piece; taken on any
        margin, four photos lost a tile."""
        if len(ids) != 2 or any(self.heart_twins[chosen[i].group][results[i][0]] < 0 for i in ids):
            return ids
        first, second = (self.heart_margin(chosen[i], *where[i], results[i][0]) for i in ids)
        return ids[::-1] if second > first + TWIN_CLEARER else ids

    def is_plain_token(self, piece: Scored, frame: FrameColours, index: int) -> bool:
        """Whether ``piece`` (``index`` in ``frame``) is read as a token and its faces'
        structure explains under half of it (:data:`vision.colour.POOR_FIT`), or its best
        face shows only faintly (:meth:`vision.colour.FrameColours.faint`): a plain face,
        whose colour the frame's brightness scale must tell
        (:meth:`vision.colour.FrameColours.plain_member`). Tiles are left to the free
        fit: their faces are never plain."""
        token = self.model.labels[self.model.groups[piece.group][0]].tile is None
        return token and (float(frame.residuals[index].min()) > POOR_FIT or frame.faint(index))

    def turned_alike(
        self,
        chosen: list[Scored],
        subset: list[int],
        frame: FrameColours,
        mask: np.ndarray,
        alike_turns: dict[int, tuple[float, ...]] | None = None,
        odds_min: float | None = None,
    ) -> dict[int, tuple[FrameColours, int]]:
        """Tiles whose figure looks the same turned (a ring, a star; by default round
        tiles, :attr:`alike_turns`), read in the turn where their heart shows best.

        Structure cannot tell such a figure's turns apart, so the turn it gives is one of
        several; a heart (or any mark off the figure) is then looked for in the wrong
        place. Nor can the overall fit: a heart a few pixels wide moves it less than the
        cut's own error does from one turn to the next (a 120 px ring fitted its 50 turns
        at 0.24-0.28, a dozen of them better than the turn of its heart, where alone its
        heart was read). So the piece is turned upright in each turn its figure allows,
        and its member and that member's twin (the same tile with or without its heart)
        are compared only where the two differ, as :meth:`FrameColours.decide` compares
        them: the turn kept is the one where the heart's face fits best against its plain
        twin. A heart lies in one turn only; a plain tile's twins compare alike in all of
        them, so it still reads plain unless its rim shows something heart-like there.

        Square tiles (``alike_turns``: :attr:`alike_quarters`) are the same case a quarter
        or a half turn at a time: a garlic's bulb, a coffin, a bulb on a band tie between
        such turns in structure, and the cut aligned in the wrong one reads its heart
        where there is none (stamp seed 7 #9: 0.857 against 0.834 a quarter off, the
        heart's corner a quarter away; banner seed 2024 #2 and #19, three garlics half a
        turn off). There, a turn other than structure's is taken only where the heart
        shows clearly (``odds_min``: :data:`SQUARE_TURN_HEART_ODDS`), as structure still
        has a say between the turns of a square.
        Returns, for each such piece, the frame and index to read it from.
        """
        alike_turns = self.alike_turns if alike_turns is None else alike_turns
        found: dict[int, tuple[FrameColours, int]] = {}
        hearts: dict[int, np.ndarray] = {}  # chosen index: its turn that shows its heart best
        variants: list[np.ndarray] = []  # other pieces' turns, judged by the overall fit
        owners: list[tuple[int, int]] = []  # (chosen index, its index in ``frame``)
        for k, i in enumerate(subset):
            s = chosen[i]
            turns = alike_turns.get(s.group, ())
            if not turns:
                continue
            member = frame.decide(k)[0]
            twin = int(self.heart_twins[s.group][member])
            if twin < 0:  # no heart to look for
                variants += [upright(s.patch, s.turn + extra) for extra in turns]
                owners += [(i, k)] * len(turns)
                continue
            heart = member if self.has_heart(s.group, member) else twin
            pair = (heart, member + twin - heart, frame.blur_of(k, member))  # the photo's blur
            angles = [s.turn + extra for extra in turns]
            errors = np.array(
                [frame.twin_errors(k, *pair), *frame.twin_errors_turned(k, *pair, s.patch, angles)]
            )
            # how much worse the heart's face fits than its plain twin (-1 .. 1)
            odds = (errors[:, 0] - errors[:, 1]) / np.maximum(errors.sum(axis=1), 1e-9)
            best_turn = int(np.argmin(odds))
            # 0: as structure turned it; a square's other turn only on a clear heart
            if best_turn > 0 and (odds_min is None or odds[best_turn] < -odds_min):
                hearts[i] = upright(s.patch, angles[best_turn - 1])
        if hearts:
            members = [self.member_faces[chosen[i].group] for i in hearts]
            twins = [self.heart_twins[chosen[i].group] for i in hearts]
            turned = FrameColours(
                list(hearts.values()), members, frame.mask, gains=frame.gains, twins=twins
            )
            found.update({i: (turned, v) for v, i in enumerate(hearts)})
        if variants:
            members = [self.member_faces[chosen[i].group] for i, _ in owners]
            twins = [self.heart_twins[chosen[i].group] for i, _ in owners]
            turned = FrameColours(variants, members, mask, gains=frame.gains, twins=twins)
            best: dict[int, tuple[float, tuple[FrameColours, int]]] = {}
            for v, (i, k) in enumerate(owners):
                if i not in best:
                    best[i] = (float(frame.residuals[k].min()), (frame, k))
                fit = float(turned.residuals[v].min())
                if fit < best[i][0]:
                    best[i] = (fit, (turned, v))
            found.update({i: place for i, (_, place) in best.items()})
        return found

    def surely_a_tile(
        self, piece: Scored, frame: FrameColours, index: int, member: int, scoring: Scoring
    ) -> bool:
        """Whether a piece matching a tile clearly, by a small lead, is a tile all the
        same: the runner-up it leads is a tile's face too, so only its motif is in
        doubt, and its colour (member ``member`` of its group) beats every other
        colour clearly (:data:`COLOUR_CLEAR`), its heart twin left out.

        Faces alike but for a small figure lead each other by little (chip's printed
        rim: 0.00-0.05), and their heart twins can tie too (a heart toss: no colour
        clarity at all), so such a tile was turned down as unsure (under 0.4) and had
        to be added by hand. Its colour says what it is: a die or a card's print
        matching a tile shows no clear colour. Reported, it is right more often than
        not (on the hard photos of 52 styles as rendered 37 more tiles reported, 28
        of them right, two no tile at all: a wax back and a button seed 7 #2 piece;
        at the real level 9, 8 right), and its low confidence asks the phone to check
        it."""
        runner = piece.match.runner
        if runner < 0 or scoring.token_groups[runner]:
            return False
        twin = int(self.heart_twins[piece.group][member])
        champion, clarity = frame.decide(index, frozenset({twin}) if twin >= 0 else frozenset())
        return champion == member and clarity >= COLOUR_CLEAR

    def heart_margin(self, piece: Scored, frame: FrameColours, index: int, member: int) -> float:
        """How surely piece ``index`` of ``frame`` (``piece``) is ``member`` rather than its
        heart twin (the same tile with or without its heart): -1 .. 1, 1 when it has no
        twin. Compared only where the two faces differ (see :meth:`FrameColours.decide`),
        at the photo's blur.

        A square piece read plain is also looked at in its other quarter turns: where its
        heart's face fits there better than its plain twin, structure may have turned it
        (a near-symmetric figure: runes' ``#``, cut a quarter off, showed its heart in
        the corner a quarter away at -0.79 while its own turn read plain at 0.92), and
        the plain reading is only as sure as its lead over that. A round piece read plain
        is looked at in every :data:`ROUND_HEART_TURNS`: structure may have turned it by
        any amount, not by quarters only.
        """
        twin = int(self.heart_twins[piece.group][member])
        if twin < 0:
            return 1.0
        blur = frame.blur_of(index, member)
        own, other = frame.twin_errors(index, member, twin, blur)
        margin = (other - own) / max(own + other, 1e-9)
        if self.has_heart(piece.group, member):
            return margin
        patch = frame.patches[index]  # upright, as read
        turns = ROUND_HEART_TURNS if piece.candidate.round else SQUARE_HEART_TURNS
        turned = frame.twin_errors_turned(index, twin, member, blur, patch, turns)
        shows = (turned[:, 1] - turned[:, 0]) / np.maximum(turned.sum(axis=1), 1e-9)
        return margin - max(float(shows.max()), 0.0)

    def has_heart(self, group: int, member: int) -> bool:
        """Whether member ``member`` of ``group`` is a tile with a heart."""
        tile = self.model.labels[self.model.groups[group][member]].tile
        return tile is not None and tile.heart


def _heart_twins(model: AppearanceModel) -> dict[int, np.ndarray]:
    """For each group, each member's twin (the same tile with its heart, or without
    it), as an index in the group; -1 where it has none (a token)."""
    twins: dict[int, np.ndarray] = {}
    for group, members in enumerate(model.groups):
        tiles = [model.labels[m].tile for m in members]
        where = {t: j for j, t in enumerate(tiles) if t is not None}
        twins[group] = np.array(
            [-1 if t is None else where.get(replace(t, heart=not t.heart), -1) for t in tiles]
        )
    return twins


def _alike_turns(
    model: AppearanceModel, token_groups: np.ndarray, config: VisionConfig
) -> dict[int, tuple[float, ...]]:
    """For each round tile group, the turns (besides none) under which its plain faces'
    structure matches itself (:data:`_ALIKE`): all of them for a ring, every fifth of a
    turn for a five-pointed star, none for a crescent. Learnt from the tile set."""
    if model.round is None:
        return {}
    step = config.round_rotation_step_deg
    # the template steps, and every whole fraction of a turn a figure may repeat after
    # (a five-pointed star's 72° fall between steps)
    fractions = {round(360.0 * k / n, 3) for n in range(2, 9) for k in range(1, n)}
    turns = np.array(sorted(fractions | set(np.arange(step, 360.0 - 1e-6, step).tolist())))
    alike: dict[int, tuple[float, ...]] = {}
    for group, members in enumerate(model.groups):
        plain = [m for m in members if model.labels[m].tile and not model.labels[m].tile.heart]
        if token_groups[group] or not plain:
            continue
        faces = model.colour_templates[plain]
        turned = np.stack([upright(face, turn) for face in faces for turn in (0.0, *turns)])
        vectors = structure_vectors(turned, model.round).reshape(len(faces), len(turns) + 1, -1)
        agreement = np.einsum("fd,ftd->ft", vectors[:, 0], vectors[:, 1:]).min(axis=0)
        found = tuple(float(t) for t, a in zip(turns, agreement, strict=True) if a >= _ALIKE)
        if found:
            alike[group] = found
    return alike


def _alike_quarter_turns(
    model: AppearanceModel, config: VisionConfig
) -> dict[int, tuple[float, ...]]:
    """For each square tile group, the quarter turns (90, 180, 270) under which all its
    plain faces' structure, slid by up to :data:`_SLIDE` pixels (of a 40 px patch) either
    way, matches itself at ``sure_tile_min`` or better (see :data:`_SLIDE`): the turns
    between which a cut's structure is a near tie. Learnt from the tile set."""
    if model.square is None:
        return {}
    mask = model.square.mask
    reach = round(_SLIDE * config.patch_px / 40)
    slides = [(dy, dx) for dy in range(-reach, reach + 1) for dx in range(-reach, reach + 1)]
    alike: dict[int, tuple[float, ...]] = {}
    for group, members in enumerate(model.groups):
        plain = [m for m in members if model.labels[m].tile and not model.labels[m].tile.heart]
        if not plain or model.labels[members[0]].tile is None:
            continue
        faces = model.colour_templates[plain].astype(np.float32)
        own = _unit(band_pass(faces, model.square.grey)[:, mask])  # F×D
        found = []
        for quarter in (1, 2, 3):
            bands = band_pass(
                np.ascontiguousarray(np.rot90(faces, -quarter, axes=(1, 2))), model.square.grey
            )
            slid = np.stack([np.roll(bands, step, axis=(1, 2))[:, mask] for step in slides])
            agreement = np.einsum("fd,sfd->sf", own, _unit(slid)).max(axis=0).min()
            if agreement >= config.sure_tile_min:
                found.append(90.0 * quarter)
        if found:
            alike[group] = tuple(found)
    return alike


def _unit(vectors: np.ndarray) -> np.ndarray:
    """Vectors (…×D) with their mean taken away, at unit length."""
    centred = vectors - vectors.mean(axis=-1, keepdims=True)
    return centred / np.maximum(np.linalg.norm(centred, axis=-1, keepdims=True), 1e-9)


def _tile_holders(
    model: AppearanceModel,
    chosen: list[Scored],
    subset: list[int],
    results: dict[int, tuple[int, float]],
    scoring: Scoring,
) -> list[list[int]]:
    """For each Moon tile read in ``subset``, the pieces read as it, the surest first
    (by their confidence before the heart is weighed)."""
    holders: dict[Tile, list[int]] = {}
    for i in subset:
        label = _label_of(model, chosen[i], results[i][0])
        if label.tile is not None:
            holders.setdefault(label.tile, []).append(i)
    for ids in holders.values():
        ids.sort(
            key=lambda i: -_confidence(chosen[i].score, scoring.lead(chosen[i]), results[i][1])
        )
    return list(holders.values())


#: A face still read this many times once :meth:`Naming.settle_duplicates` is done is
#: printed, not laid: every tile read in the blob it was read in is a print too.
PRINT_REPEATS = 3
_PRINTED = "a print ({} read over and over)"


def _repeated_reads(
    model: AppearanceModel,
    chosen: list[Scored],
    results: dict[int, tuple[int, float]],
    scoring: Scoring,
) -> dict[int, str]:
    """The pieces read as a Moon tile that are none, each with why: a tile a surer
    piece of the frame reads as too, or any tile read in a blob where one face is read
    :data:`PRINT_REPEATS` times or more.

    Every tile is unique, and :meth:`Naming.settle_duplicates` has already given each
    clash's less sure pieces their next best faces, three times over. What still
    clashes after that is a print repeated over a mat or a card, not tiles: a deposit
    mat's slots, outlined squares, all read as one line-rich stained-glass face
    (``leaded`` seed 2024 #9: seventeen pieces as one tile, clear in structure, at
    confidence 0). Over the 1,160 hard photos of the regression sets no true tile
    was among them. Nor, where one face is read three times or more, are its surest
    read or the other faces read in the same blob: the same mat's slots read as
    twenty green maidens and, settled, as four other maidens and a blue garlic, five
    false tiles (a block of true tiles is one blob too, but its faces settle apart).
    """
    every = list(range(len(chosen)))
    holders = _tile_holders(model, chosen, every, results, scoring)
    tiles = [_label_of(model, chosen[ids[0]], results[ids[0]][0]).tile for ids in holders]
    printed = {  # each blob a face is read over and over in, and that face
        chosen[i].candidate.blob: tile
        for ids, tile in zip(holders, tiles, strict=True)
        if len(ids) >= PRINT_REPEATS
        for i in ids
        if chosen[i].candidate.blob >= 0  # a search's find has a number of its own
    }
    why: dict[int, str] = {}
    for ids, tile in zip(holders, tiles, strict=True):
        for i in ids[1:]:
            why[i] = f"{tile} again"
        if len(ids) >= PRINT_REPEATS:
            why[ids[0]] = _PRINTED.format(tile)
        for i in ids:
            if chosen[i].candidate.blob in printed:
                why[i] = _PRINTED.format(printed[chosen[i].candidate.blob])
    return why


#: A tile reported under this confidence was a coin toss between it and its twin (its
#: heart or colour read no better than the other's)...
COIN_TOSS = 0.01
#: ...and is kept only where some tile of the frame is reported at this or more.
SURE_SOMEWHERE = 0.6


def _tosses_kept_by_surer(
    tiles: list[TileDetection],
) -> tuple[list[TileDetection], list[RejectedCandidate]]:
    """The frame's tiles less its coin tosses (:data:`COIN_TOSS`) where no tile is
    read as surely as :data:`SURE_SOMEWHERE`, and those turned down, each with why.

    A clear tile whose heart is a coin toss is kept as its likelier twin (a tile is
    easier to correct than to add), but on a table with no tile two alike things,
    two dice or two cards, read as one face and settle as the face and its twin, the
    less sure at confidence 0: on the empty tables of 52 styles 27 of 60 false tiles
    were such, and the best tile of such a frame read 0.41-0.71 (20 of them under 0.6).
    Of the true frames (every set, the real level, one to three tiles among clutter)
    none with a coin toss in it read every tile under 0.6 (frames whose every tile is
    under it: wax's and doily's, and a lone tile among clutter, 0.47-0.6, none a coin
    toss); at 0.75 seven more false tiles go, and fifteen true ones."""
    if not tiles or max(t.confidence for t in tiles) >= SURE_SOMEWHERE:
        return tiles, []
    kept = [t for t in tiles if t.confidence >= COIN_TOSS]
    why = f"a coin toss, and no tile in the frame read surer than {SURE_SOMEWHERE}"
    turned = [RejectedCandidate(t.center, t.polygon, why) for t in tiles if t not in kept]
    return kept, turned


def _label_of(model: AppearanceModel, s: Scored, member: int):
    return model.labels[model.groups[s.group][member]]


def _confidence(score: float, margin: float, clarity: float, heart: float = 1.0) -> float:
    """0..1 from how well the structure matched, by how much it beat the next kind of
    object, and by how much the chosen colour beat the next colour; ``heart`` (a tile's
    :meth:`Naming.heart_margin`) caps the last by how surely its heart was read."""
    structure = min(max((score - 0.3) / 0.5, 0.0), 1.0)
    lead = min(max(margin / CLEAR_LEAD, 0.0), 1.0)
    colour = min(max(clarity * 3, 0.0), 1.0, max(heart / HEART_CLEAR, 0.0))
    return float((structure * lead * colour) ** (1 / 3))
