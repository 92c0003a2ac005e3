//! Combat outcomes (p. 38–42): the general outcome by score, the exceptions by element type,
//! bound, opponent and going (quick kills among them), the disregard cases, pursuit and
//! pressing forward, and the outcome moves and destruction of friends behind as checklists.

use super::combat::{Contact, Fighter};
use super::data::{goings, Bound, Class, CombatKind, DbmmData, Fate, GeneralCondition};
use super::element::Checked;
use crate::contract::{Check, CheckStatus};

/// An element's final score against its opponent (R-DBMM-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Score {
    Greater,
    Equal,
    Less,
    /// Less than half the enemy's (or at most half, by the ruleset's `doubled`).
    Doubled,
}

impl Score {
    pub fn symbol(self) -> &'static str {
        match self {
            Score::Greater => ">",
            Score::Equal => "=",
            Score::Less => "<",
            Score::Doubled => "<<",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Close,
    Shooting { shot_back: bool },
}

/// What one element's outcome depends on.
pub struct Context<'a> {
    pub fighter: &'a Fighter,
    pub checked: &'a Checked<'a>,
    pub opponent: &'a Checked<'a>,
    pub opponent_fighter: &'a Fighter,
    pub own_bound: bool,
    pub kind: Kind,
    /// The primary shooter when the target does not shoot back.
    pub shooting_unanswered: bool,
}

/// One element's fate for one score, with the line of the sheet that gave it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct FateAt {
    pub score: Score,
    pub fate: Fate,
    pub text: String,
    pub quick_kill: bool,
    /// Only if the player wishes: the general outcome the player may keep instead (p. 38–39).
    pub choice: Option<Fate>,
    pub ruling: Option<String>,
    /// Pursuit or pressing forward, when it wins.
    pub pursuit: Option<String>,
    /// The quick kill the winner's going denied it (p. 19, R-DBMM-29), in words.
    pub denied: Option<String>,
}

impl FateAt {
    /// A fate from a line of the sheet that is neither a quick kill nor a choice.
    fn plain(score: Score, fate: Fate, text: &str) -> FateAt {
        FateAt {
            score,
            fate,
            text: text.to_string(),
            quick_kill: false,
            choice: None,
            ruling: None,
            pursuit: None,
            denied: None,
        }
    }

    /// Its fate in words; a fate the player may choose reads as the choice it is.
    pub fn word(&self) -> String {
        match self.choice {
            Some(kept) => format!(
                "{} or {}, as the player chooses",
                self.fate.word(),
                kept.word()
            ),
            None => self.fate.word().to_string(),
        }
    }

    pub fn describe(&self) -> String {
        let mut s = format!("({}) {}", self.score.symbol(), self.word());
        if self.quick_kill {
            s.push_str(" — quick kill");
        }
        if let Some(p) = &self.pursuit {
            s.push_str(&format!("; {p}"));
        }
        s
    }

    /// The fate, or the player's choice of it and the kept general outcome.
    pub fn choice(&self) -> crate::fate::FateChoice {
        crate::fate::FateChoice {
            fate: self.fate,
            or: self.choice,
        }
    }

    /// `repulsed`, or `repulsed_or_recoil` for the player's choice.
    pub fn code(&self) -> String {
        self.choice().code()
    }
}

fn bound_fits(bound: Bound, own: bool) -> bool {
    match bound {
        Bound::Own => own,
        Bound::Enemy => !own,
        Bound::Both => true,
    }
}

fn is_shot_at(ctx: &Context) -> bool {
    match ctx.kind {
        Kind::Close => false,
        // The target is always shot at; the shooter only when answered.
        Kind::Shooting { .. } => !ctx.shooting_unanswered,
    }
}

/// The fate of one element for its final score.
pub fn fate(data: &DbmmData, ctx: &Context, score: Score) -> FateAt {
    let d = &data.outcomes.disregard;
    let close = ctx.kind == Kind::Close;
    let disregarded = |text: &str| FateAt::plain(score, Fate::Disregarded, text);
    if ctx.shooting_unanswered {
        return disregarded(&d.shooting_not_shot_back);
    }
    if ctx.fighter.as_overlap {
        return disregarded(&d.as_overlap);
    }
    // A fleeing element that could not avoid the enemy: through them if more, else destroyed,
    // and it inflicts no combat outcome (p. 41).
    let fleeing = &data.outcomes.fleeing;
    if close && ctx.fighter.fleeing {
        return if score == Score::Greater {
            FateAt::plain(score, Fate::BurstThrough, &fleeing.burst_through)
        } else {
            FateAt::plain(score, Fate::Destroyed, &fleeing.destroyed)
        };
    }
    if close && ctx.opponent_fighter.fleeing && matches!(score, Score::Less | Score::Doubled) {
        return disregarded(&fleeing.enemy_untouched);
    }
    if close && ctx.opponent_fighter.contact == Contact::Rear {
        return disregarded(&d.against_rear);
    }
    if close && ctx.opponent_fighter.contact == Contact::Flank {
        if ctx.opponent_fighter.also_fighting_front {
            return disregarded(&d.against_flank_engaged);
        }
        if ctx.opponent.type_code == "Exp" {
            return disregarded(&d.against_flank_exp);
        }
    }
    let symbol = score.symbol();
    let f = ctx.fighter;
    for g in data
        .outcomes
        .general
        .iter()
        .filter(|g| g.scoring == symbol && g.condition.is_some())
    {
        let holds = match g.condition {
            Some(GeneralCondition::FlankOrRear) => close && f.contact != Contact::Front,
            Some(GeneralCondition::RearContact) => close && f.contact == Contact::Rear,
            Some(GeneralCondition::PfTower) => {
                f.in_pf_tower && (close || ctx.opponent.type_code == "Art")
            }
            Some(GeneralCondition::FootAcrossFortification) => {
                close
                    && ctx.checked.class == Class::Foot
                    && (f.across_fortification || f.assaulting_undefended)
            }
            Some(GeneralCondition::AssaultingUndefended) => f.assaulting_undefended,
            None => false,
        };
        if holds {
            let mut at = FateAt::plain(score, g.result, &g.text);
            if g.condition == Some(GeneralCondition::RearContact) {
                at.ruling = Some("R-DBMM-23".into());
            }
            return at;
        }
    }
    let me = ctx.checked.traits();
    let them = ctx.opponent.traits();
    let shot_at = is_shot_at(ctx);
    // The winner's going may deny it the quick kill (p. 19, R-DBMM-29): the line that would have
    // been the quick kill is passed over and the next that holds gives the fate.
    let deny = if close {
        data.outcomes
            .quick_kill_deny
            .iter()
            .find(|d| d.going == ctx.opponent_fighter.going && data.selector(&d.who).matches(&them))
    } else {
        None
    };
    let mut denied: Option<String> = None;
    for e in &data.outcomes.exceptions {
        let combat_ok = match e.combat {
            CombatKind::Any => true,
            CombatKind::Close => close,
            CombatKind::Shot => shot_at,
        };
        let going_ok = e
            .going
            .as_ref()
            .is_none_or(|g| goings(g).is_ok_and(|list| list.contains(&f.going)));
        if e.scoring == symbol
            && combat_ok
            && going_ok
            && bound_fits(e.bound, ctx.own_bound)
            && data.selector(&e.type_code).matches(&me)
            && e.opponent
                .as_ref()
                .is_none_or(|o| data.selector(o).matches(&them))
            && e.opponent_elephant_killer
                .is_none_or(|k| k == ctx.opponent_fighter.element.elephant_killer)
            && e.opponent_wedge
                .is_none_or(|w| w == ctx.opponent_fighter.element.wedge)
            && e.in_bua.is_none_or(|b| b == f.in_bua)
            && e.in_group.is_none_or(|g| g == f.in_group)
            && e.at_land.is_none_or(|l| l == f.at_land)
        {
            if let (true, Some(d)) = (e.quick_kill, deny) {
                denied.get_or_insert_with(|| {
                    format!(
                        "{}: {} is not “{}” (p. 38–39) but takes the next line that holds.",
                        d.text,
                        ctx.checked.element.label(),
                        super::lower_first(&e.text),
                    )
                });
                continue;
            }
            return FateAt {
                score,
                fate: e.result,
                text: e.text.clone(),
                quick_kill: e.quick_kill,
                // The general outcome for the score, kept if the player does not wish it.
                choice: e.choice.then(|| general_outcome(data, score)),
                ruling: Some("R-DBMM-10".into()),
                pursuit: None,
                denied,
            };
        }
    }
    let g = unconditional(data, score);
    FateAt {
        denied,
        ..FateAt::plain(score, g.result, &g.text)
    }
}

fn unconditional(data: &DbmmData, score: Score) -> &super::data::GeneralOutcome {
    data.outcomes
        .general
        .iter()
        .find(|g| g.scoring == score.symbol() && g.condition.is_none())
        .expect("the ruleset checks give every score an unconditional outcome")
}

fn general_outcome(data: &DbmmData, score: Score) -> Fate {
    unconditional(data, score).result
}

pub fn impetuous(data: &DbmmData, c: &Checked) -> bool {
    let t = c.traits();
    data.selector(&data.pursuit.impetuous).matches(&t)
        || (c.element.wedge && data.selector(&data.pursuit.impetuous_in_wedge).matches(&t))
}

/// Pursuit after close combat, pressing forward after shooting (p. 42): fills `me.pursuit`,
/// and makes a mandatory pursuit the fate.
pub fn pursuit(data: &DbmmData, ctx: &Context, me: &mut FateAt, other: &FateAt) {
    if me.score != Score::Greater
        || matches!(
            me.fate,
            Fate::Disregarded | Fate::BurstThrough | Fate::Destroyed
        )
    {
        return;
    }
    if me.fate == Fate::Turn {
        // It has no enemy to its front to follow (R-DBMM-23).
        me.pursuit = Some("does not pursue (contacted on its rear edge)".into());
        return;
    }
    let imp = impetuous(data, ctx.checked);
    let t = ctx.checked.traits();
    let is = |sel: &str| data.selector(sel).matches(&t);
    let them = ctx.opponent.traits();
    let vs = |sel: &str| data.selector(sel).matches(&them);
    if let Kind::Shooting { .. } = ctx.kind {
        // Only the element shot at presses forward against its shooter, whether or not it shot
        // back (the shooter's own outcome may be disregarded).
        if ctx.shooting_unanswered {
            return;
        }
        let step = data.pursuit.press_forward_paces;
        me.pursuit = Some(if imp && other.score == Score::Doubled {
            format!("must press forward {step}p (impetuous, the shooter doubled)")
        } else {
            format!("may press forward {step}p")
        });
        return;
    }
    if !matches!(other.fate, Fate::Recoil | Fate::Flee | Fate::Destroyed) {
        return;
    }
    let never = if ctx.fighter.as_overlap || ctx.opponent_fighter.contact != Contact::Front {
        Some("fought only as overlap, flank or corner contact")
    } else if ctx.checked.class == Class::Foot && them.class == Class::Mounted {
        Some("Foot fighting Mounted")
    } else if ctx
        .fighter
        .factors
        .iter()
        .any(|f| f == "manning_fortification")
    {
        Some("defenders of TF/PF")
    } else {
        None
    };
    if let Some(why) = never {
        me.pursuit = Some(format!("does not pursue ({why})"));
        return;
    }
    let reg = !ctx.checked.element.irr;
    let kn_stays = is("Kn") && !imp && !ctx.own_bound && !vs("Kn");
    let single_based_x = (is("Kn (X)") || is("Cm (X)")) && !ctx.checked.element.double_based_rear;
    let may = if is("Cv | LH") && !imp {
        Some("non-impetuous Cv, LH")
    } else if kn_stays {
        Some("non-impetuous Kn in the enemy bound, not against Kn")
    } else if is("Bd | Sp") && reg && !imp && vs("Foot") {
        Some("non-impetuous Reg Bd/Sp fighting Foot")
    } else if is("Ps") {
        Some("Ps")
    } else {
        None
    };
    let must = if imp {
        Some("impetuous")
    } else if may.is_some() {
        None
    } else if is("Mounted") && !single_based_x {
        Some("Mounted")
    } else if is("Pk | Ax") || (is("Bd") && !reg) || (is("Sp") && !(reg && vs("Foot"))) {
        Some("Pk, Ax, Irr Bd, Sp")
    } else if is("Naval") {
        Some("naval")
    } else {
        None
    };
    if let Some(why) = must {
        me.fate = Fate::Pursue;
        me.pursuit = Some(format!("must pursue ({why})"));
    } else if let Some(why) = may {
        me.pursuit = Some(format!("may pursue ({why})"));
    }
}

/// What the umpire checks on the table for the outcome moves (p. 40–42).
pub fn movement_checks(_data: &DbmmData, kind: Kind) -> Vec<Check> {
    let mut out = vec![
        Check::umpire(
            "Recoil: back its base depth without turning; it cannot recoil into enemy, impassable terrain, the battlefield edge, TF/PF or friends it cannot pass through or push back (El, WWg, Bge, Naval cannot be pushed back)",
            "p. 40",
        ),
        Check::umpire(
            "Repulse: straight back, still facing the opponent, 160p–240p; if 160p is prevented it must recoil; destroyed if an enemy front edge touches its flank or rear",
            "p. 40",
        ),
        Check::umpire(
            "Flee: recoil its base depth, turn 180°, then the rest of a full tactical move for the going it starts in; destroyed if the first recoil cannot be completed",
            "p. 40–41",
        ),
        Check::umpire(
            "Pursue: straight ahead the element's base depth or width, stopping at any front contact; never into DGo or water, off the battlefield, or as defenders of TF/PF",
            "p. 42",
        ),
        Check::umpire(
            "Spent: removed, not counted as lost unless the general's element, its general already lost, or the command becomes broken",
            "p. 42",
        ),
    ];
    if let Kind::Shooting { .. } = kind {
        out.push(Check::umpire(
            "Pressing forward: the element and friends lined up behind move straight forward 80p",
            "p. 42",
        ));
    }
    out
}

/// Destruction of friends behind (p. 42) for the friend entered behind an element: the check,
/// and the friend's label when its destruction follows from what was entered (a battle then
/// destroys it with the element in front).
pub struct FriendsBehind {
    pub check: Check,
    pub destroyed_with: Option<String>,
}

pub fn friends_behind(
    data: &DbmmData,
    destroyed: &Checked,
    fighter: &Fighter,
    opponent: &Checked,
) -> Option<FriendsBehind> {
    let friend = fighter.behind.as_ref()?;
    let friend = super::element::check(data, friend, "behind").ok()?;
    if destroyed.type_code == "Ps" {
        return None;
    }
    let ft = friend.traits();
    let ot = opponent.traits();
    let is = |sel: &str, t: &super::selector::Traits| data.selector(sel).matches(t);
    let reasons = [
        (
            is("Foot", &ft) && is("Wb", &ot),
            "Foot, and the destroyed element's frontal opponent was Wb",
        ),
        (
            is("Bw | Sh", &ft) && is("Exp | Kn | Cm (S)", &ot),
            "Bw, Sh, and the destroyed element's frontal opponent was Exp, Kn, Cm (S)",
        ),
        (
            friend.element.double_based_rear,
            "required to be double-based with the destroyed element",
        ),
        (
            is("El | Exp", &destroyed.traits()),
            "the destroyed element was El, Exp",
        ),
    ];
    let hit = reasons.iter().find(|(holds, _)| *holds);
    let label = format!(
        "If {} is destroyed in close combat, {} directly behind (within its base depth) is destroyed too",
        destroyed.element.label(),
        friend.element.label()
    );
    Some(match hit {
        Some((_, why)) => FriendsBehind {
            check: Check::new(format!("{label}: {why}"), CheckStatus::Met, "p. 42"),
            destroyed_with: Some(friend.element.label()),
        },
        None => FriendsBehind {
            check: Check::new(
                format!("{label} only if Ps, Hd, Art directly behind in edge contact with the enemy front edge, or its side edge is entirely in contact with an enemy front edge"),
                CheckStatus::Umpire,
                "p. 42",
            ),
            destroyed_with: None,
        },
    })
}

/// A fleeing element and the friends it met and cannot pass through or around (p. 41).
#[derive(Clone, Debug, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FleeThroughFriendsSituation {
    /// The fleeing element.
    pub fleeing: super::element::Element,
    /// The friends it contacts.
    pub friends: super::element::Element,
}

/// It bursts through them; the friends recoil if its ME are equal or more than theirs, and are
/// spent if less (p. 41).
pub fn flee_through_friends(
    data: &DbmmData,
    s: &FleeThroughFriendsSituation,
) -> Result<crate::contract::Resolution, crate::error::RefereeError> {
    use super::element::{check, me_text, morale_halves};
    use crate::contract::{effect, Change, Resolution, Target, Total};
    let fleeing = check(data, &s.fleeing, "fleeing")?;
    let friends = check(data, &s.friends, "friends")?;
    let (mine, _) = morale_halves(data, &fleeing);
    let (theirs, _) = morale_halves(data, &friends);
    let text = &data.outcomes.fleeing;
    let (fate, line) = if mine >= theirs {
        (Fate::Recoil, &text.friends_recoil)
    } else {
        (Fate::Spent, &text.friends_spent)
    };
    let (fl, fr) = (fleeing.element.label(), friends.element.label());
    let (fl, fr) = if fl == fr {
        (format!("Fleeing {fl}"), format!("Friends {fr}"))
    } else {
        (fl, fr)
    };
    let mut r = Resolution::certain(
        &data.system.id,
        "flee_through_friends",
        fate.code(),
        &format!(
            "{fl} ({} ME) bursts through {fr} ({} ME), which {}.",
            me_text(mine),
            me_text(theirs),
            fate.word()
        ),
        vec![effect(
            Target::Unit(fr.clone()),
            Change::ElementFate { fate: fate.into() },
            &text.rule,
            None,
        )],
    );
    for (who, me) in [(&fl, mine), (&fr, theirs)] {
        r.totals.push(Total::new(
            format!("{who} ME"),
            me_text(me),
            &data.morale.rule,
            Some("R-DBMM-11"),
        ));
    }
    r.notes
        .push(crate::contract::Note::new(line.clone(), &text.rule, None));
    Ok(r)
}
