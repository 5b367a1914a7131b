"""Saving and loading a :class:`~inventory.stock.StockLedger` as JSON.

The on-disk format is versioned so that older files can still be read::

    {"version": 2,
     "levels": [{"sku": "WIDGET-1", "location": "main", "sellable": true,
                 "on_hand": 40, "reserved": 5, "in_transit": 0}],
     "reservations": [{"id": "R00001", "sku": "WIDGET-1", "location": "main",
                       "quantity": 5, "shipped": 0, "order_ref": "1001"}]}
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Union

from inventory.models import Location, Reservation, Sku, StockLevel
from inventory.stock import StockLedger

FORMAT_VERSION = 2

PathLike = Union[str, "os.PathLike[str]"]


def _dump(ledger: StockLedger) -> dict:
    levels = []
    for (sku, location), level in sorted(
        ledger.snapshot().items(), key=lambda item: (item[0][0].code, item[0][1].name)
    ):
        levels.append(
            {
                "sku": sku.code,
                "location": location.name,
                "sellable": location.sellable,
                "on_hand": level.on_hand,
                "reserved": level.reserved,
                "in_transit": level.in_transit,
            }
        )
    reservations = [
        {
            "id": res.id,
            "sku": res.sku.code,
            "location": res.location.name,
            "quantity": res.quantity,
            "shipped": res.shipped,
            "order_ref": res.order_ref,
        }
        for res in ledger.reservations()
    ]
    return {"version": FORMAT_VERSION, "levels": levels, "reservations": reservations}


def save_ledger(ledger: StockLedger, path: PathLike) -> None:
    """Write ``ledger`` to ``path`` atomically (temp file + rename)."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=target.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(_dump(ledger), handle, indent=2, sort_keys=True)
            handle.write("\n")
        os.replace(tmp, target)
    except BaseException:
        os.unlink(tmp)
        raise


def load_ledger(path: PathLike) -> StockLedger:
    """Read a ledger written by :func:`save_ledger` (format 1 or 2)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    version = data.get("version", 1)
    if version > FORMAT_VERSION:
        raise ValueError(f"ledger format {version} is newer than this library")
    locations = {}
    levels = {}
    for row in data.get("levels", []):
        # Format 1 had no notion of non-sellable locations.
        location = Location(row["location"], row.get("sellable", True))
        locations[location.name] = location
        levels[(Sku(row["sku"]), location)] = StockLevel(
            on_hand=row["on_hand"],
            reserved=row.get("reserved", 0),
            in_transit=row.get("in_transit", 0),
        )
    reservations = [
        Reservation(
            id=row["id"],
            sku=Sku(row["sku"]),
            location=locations.get(row["location"], Location(row["location"])),
            quantity=row["quantity"],
            order_ref=row.get("order_ref"),
            shipped=row.get("shipped", 0),
        )
        for row in data.get("reservations", [])
    ]
    ledger = StockLedger()
    ledger.restore(levels, reservations)
    return ledger
