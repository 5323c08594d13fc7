"""The cage: chips sold and redeemed, each a balanced, idempotent transaction.

In a card room the cashier sells and redeems chips for players (`sell_chips`, `redeem_chips`:
the cash in and out of the cage, by the cashier who took or paid it). Each sale records its
tender (`cardroom.room.money.tenders`: cash, debit card, or a check entered in the cage's register,
`cardroom.room.books.checks`); the room gives no credit. Players sell themselves
chips (`buy_chips`, `cash_out`) only where the house setting `self_service_chips` is on, in a
demonstration or free-play room.

A player's cage requests share one key space (`cage:<account>:<key>`), so a key that bought
chips cannot also cash out: the same key is a retry of the same request or it is refused."""

from __future__ import annotations

from datetime import date

from sqlalchemy.engine import Connection

from cardroom.money import Cents, format_money, require_cents
from cardroom.room.books import checks
from cardroom.room.compliance import currency, exclusions
from cardroom.room.money import ledger, tenders
from cardroom.room.people import patrons
from cardroom.room.people.accounts import Account, Permission, Role
from cardroom.room.play.messages import MAX_KEY
from cardroom.room.storage import audit
from cardroom.room.storage.errors import LedgerError, PermissionDenied
from cardroom.room.storage.settings import RoomSettings

MAX_BUY_CENTS = 10_000_000
NOT_SELF_SERVICE = ("refused: players buy and cash out chips at the cage (the cashier) or at "
                    "a table, not by themselves in this room")


def _check(amount: Cents, key: str) -> None:
    if not 0 < len(key) <= MAX_KEY:
        raise LedgerError("this form has no valid request key: reload the page")
    require_cents(amount, "amount")
    if not 0 < amount <= MAX_BUY_CENTS:
        raise LedgerError(f"an amount must be between $0.01 and {format_money(MAX_BUY_CENTS)}")


def _self_service(settings: RoomSettings, who: Account) -> None:
    who.require(Permission.CASHIER)
    if not settings.self_service_chips:
        raise PermissionDenied(NOT_SELF_SERVICE)


def _move(conn: Connection, player: Account, actor: Account, amount: Cents, key: str,
          kind: str, action: str, buying: bool,
          detail: dict[str, object] | None = None) -> ledger.Posted:
    """Chips from the cage to the player's chips (`buying`) or back, and its audit entry."""
    _check(amount, key)
    sign = 1 if buying else -1
    posted = ledger.post(conn, f"cage:{player.id}:{key}", kind,
                         ledger.move(ledger.HOUSE_CAGE, ledger.wallet(player.id), sign * amount),
                         actor=actor.username,
                         memo=f"{'buy' if buying else 'cash out'} {format_money(amount)}")
    if not posted.replayed:
        said: dict[str, object] = {"amount": amount, "tx": posted.tx_id, **(detail or {})}
        if actor.id != player.id:
            said["player"] = player.username
        audit.append(conn, actor.username, action, said)
        currency.record(conn, posted, kind, player, amount, actor.username)
    return posted


def buy_chips(conn: Connection, settings: RoomSettings, who: Account, amount: Cents,
              key: str) -> ledger.Posted:
    """A player buys their own chips (self-service rooms only)."""
    _self_service(settings, who)
    return _move(conn, who, who, amount, key, "buy-chips", "cashier.buy", True)


def cash_out(conn: Connection, settings: RoomSettings, who: Account, amount: Cents,
             key: str) -> ledger.Posted:
    """A player cashes out their own chips (self-service rooms only)."""
    _self_service(settings, who)
    return _move(conn, who, who, amount, key, "cash-out", "cashier.cash-out", False)


def _customer(cashier: Account, player: Account) -> None:
    cashier.require(Permission.CAGE)
    if player.role is not Role.PLAYER:
        raise LedgerError(f"{player.username} is not a player: the cage sells chips to "
                          "players")


def _patron(conn: Connection, player: Account, day: date | None, what: str) -> int:
    """The id of the player's patron, who is of age on the gambling day `day` (today):
    refused when the cage has not seen their identity or they are under the profile's
    minimum age (issue 21, WAC 230-06-010; issue 22)."""
    when = day or patrons.gambling_today()
    return patrons.require_patron_of_age(conn, player.id, when, what).id


def sell_chips(conn: Connection, cashier: Account, player: Account, amount: Cents,
               key: str, tender: str = "cash", check: checks.Check | None = None,
               today: date | None = None, day: date | None = None) -> ledger.Posted:
    """The cashier takes `amount` in `tender` (cash, debit card, or the `check` the cashier
    read, on the room's calendar date `today`) and gives the player chips. The player's
    account must be linked to a patron (the cage saw their identity and date of birth) of
    age on the gambling day `day` (today); the sale records the patron."""
    _customer(cashier, player)
    exclusions.refuse_at_cage(conn, player.id, "sell")  # RCW 9.46.071
    tender = tenders.require(tender, tenders.AT_CAGE, "at the cage")
    detail: dict[str, object] = {"tender": tender,
                                 "patron": _patron(conn, player, day, "sell")}
    if tender == "check":
        if check is None or today is None:
            raise LedgerError("write the check's kind, number, drawer, bank and date")
        check = checks.acceptable(check, today)
        checks.refuse_if_owing(conn, player)
        detail["check"] = {"kind": check.kind, "number": check.number}
    posted = _move(conn, player, cashier, amount, key, tenders.SALE_KINDS[tender],
                   "cage.sell", True, detail)
    if check is not None and tender == "check" and not posted.replayed:
        checks.record(conn, cashier, player, check, amount, posted.tx_id)
    return posted


def redeem_chips(conn: Connection, cashier: Account, player: Account, amount: Cents,
                 key: str, day: date | None = None) -> ledger.Posted:
    """The cashier takes the player's chips and pays `amount` in cash (cash out of the
    cage); refused, changing nothing, if the player holds fewer chips, has no patron, or is
    under the minimum age on the gambling day `day` (today). Records the patron."""
    _customer(cashier, player)
    patron = _patron(conn, player, day, "pay")
    exclusions.refuse_at_cage(conn, player.id, "redeem")  # RCW 9.46.071
    return _move(conn, player, cashier, amount, key, "cage-redeem", "cage.redeem", False,
                 {"patron": patron})
