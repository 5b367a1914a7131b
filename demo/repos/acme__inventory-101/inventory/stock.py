"""The stock ledger: per-location counters plus open reservations.

A :class:`StockLedger` never lets ``available`` go below zero through its
public methods.  Every mutation goes through :meth:`StockLedger._level`, which
creates a zeroed :class:`~inventory.models.StockLevel` on first use.
"""

from __future__ import annotations

import itertools
import logging
from typing import Dict, Iterator, Optional, Tuple

from inventory.errors import InsufficientStock, UnknownReservation, UnknownSku
from inventory.models import Location, Reservation, Sku, StockLevel

log = logging.getLogger(__name__)

_Key = Tuple[Sku, Location]


class StockLedger:
    """Stock levels for many SKUs across many locations."""

    def __init__(self) -> None:
        self._levels: Dict[_Key, StockLevel] = {}
        self._reservations: Dict[str, Reservation] = {}
        self._ids = itertools.count(1)

    # -- queries -----------------------------------------------------------

    def level(self, sku: Sku, location: Location) -> StockLevel:
        """Return a *copy* of the counters for ``sku`` at ``location``."""
        try:
            return self._levels[(sku, location)].copy()
        except KeyError:
            raise UnknownSku(sku) from None

    def available(self, sku: Sku, location: Optional[Location] = None) -> int:
        """Units that can still be reserved, at one location or in total.

        Only sellable locations count towards the total.
        """
        if location is not None:
            return self.level(sku, location).available
        total = 0
        found = False
        for (item, where), level in self._levels.items():
            if item != sku:
                continue
            found = True
            if where.sellable:
                total += level.available
        if not found:
            raise UnknownSku(sku)
        return total

    def reservations(self, sku: Optional[Sku] = None) -> Iterator[Reservation]:
        """Open reservations, oldest first, optionally for a single SKU."""
        for res in self._reservations.values():
            if sku is None or res.sku == sku:
                yield res

    def reservation(self, reservation_id: str) -> Reservation:
        try:
            return self._reservations[reservation_id]
        except KeyError:
            raise UnknownReservation(reservation_id) from None

    # -- mutations ---------------------------------------------------------

    def receive(self, sku: Sku, location: Location, quantity: int) -> None:
        """Book ``quantity`` new units in at ``location``."""
        if quantity <= 0:
            raise ValueError("quantity must be positive")
        self._level(sku, location).on_hand += quantity
        log.debug("received %d x %s at %s", quantity, sku, location)

    def reserve(
        self,
        sku: Sku,
        location: Location,
        quantity: int,
        order_ref: Optional[str] = None,
    ) -> Reservation:
        """Promise ``quantity`` units to an order and return the reservation."""
        if quantity <= 0:
            raise ValueError("quantity must be positive")
        level = self._level(sku, location)
        if quantity > level.available:
            raise InsufficientStock(sku, location, quantity, level.available)
        level.reserved += quantity
        res = Reservation(
            id=f"R{next(self._ids):05d}",
            sku=sku,
            location=location,
            quantity=quantity,
            order_ref=order_ref,
        )
        self._reservations[res.id] = res
        return res

    def ship(self, reservation_id: str, quantity: Optional[int] = None) -> Reservation:
        """Ship all or part of a reservation.

        Shipped units leave ``on_hand`` and ``reserved`` together.  A
        reservation that has been shipped completely is closed.
        """
        res = self.reservation(reservation_id)
        qty = res.remaining if quantity is None else quantity
        if qty <= 0:
            raise ValueError("quantity must be positive")
        if qty > res.remaining:
            raise InsufficientStock(res.sku, res.location, qty, res.remaining)
        level = self._level(res.sku, res.location)
        level.on_hand -= qty
        level.reserved -= qty
        res.shipped += qty
        if res.is_complete:
            del self._reservations[res.id]
        return res

    def release(self, reservation_id: str, reason: str = "") -> Reservation:
        """Cancel the unshipped part of a reservation.

        The units become available again; anything already shipped stays
        shipped.
        """
        res = self._reservations.pop(reservation_id, None)
        if res is None:
            raise UnknownReservation(reservation_id)
        level = self._level(res.sku, res.location)
        level.reserved -= res.quantity
        if reason:
            res.notes.append(f"released: {reason}")
        log.info("released %s (%s)", res.id, reason or "no reason given")
        return res

    def transfer(
        self,
        sku: Sku,
        source: Location,
        target: Location,
        quantity: int,
    ) -> None:
        """Move ``quantity`` units from ``source`` to ``target``.

        The units are marked in transit at the target until
        :meth:`complete_transfer` is called.
        """
        if source == target:
            raise ValueError("source and target must differ")
        level = self._level(sku, source)
        if quantity > level.available:
            raise InsufficientStock(sku, source, quantity, level.available)
        level.on_hand -= quantity
        self._level(sku, target).in_transit += quantity

    def complete_transfer(self, sku: Sku, target: Location, quantity: int) -> None:
        level = self._level(sku, target)
        if quantity > level.in_transit:
            raise InsufficientStock(sku, target, quantity, level.in_transit)
        level.in_transit -= quantity
        level.on_hand += quantity

    # -- internals ---------------------------------------------------------

    def _level(self, sku: Sku, location: Location) -> StockLevel:
        key = (sku, location)
        level = self._levels.get(key)
        if level is None:
            level = self._levels[key] = StockLevel()
        return level

    def snapshot(self) -> Dict[_Key, StockLevel]:
        """Copies of every counter, for persistence and reporting."""
        return {key: level.copy() for key, level in self._levels.items()}

    def restore(self, levels: Dict[_Key, StockLevel], reservations) -> None:
        """Replace the ledger's state (used by :mod:`inventory.storage`)."""
        self._levels = {key: level.copy() for key, level in levels.items()}
        self._reservations = {res.id: res for res in reservations}
        highest = max((int(r.id[1:]) for r in reservations), default=0)
        self._ids = itertools.count(highest + 1)
