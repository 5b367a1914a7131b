"""Command line front end: ``acme-inventory <command> ...``.

The ledger lives in a JSON file (``--ledger``, default ``inventory.json`` in
the current directory) that is loaded before and saved after every command.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import List, Optional

from inventory.errors import InventoryError
from inventory.models import Location, Sku
from inventory.stock import StockLedger
from inventory.storage import load_ledger, save_ledger

DEFAULT_LEDGER = "inventory.json"


def _open(path: Path) -> StockLedger:
    if path.exists():
        return load_ledger(path)
    return StockLedger()


def _cmd_receive(ledger: StockLedger, args: argparse.Namespace) -> str:
    ledger.receive(Sku(args.sku), Location(args.location), args.qty)
    return f"received {args.qty} x {args.sku} at {args.location}"


def _cmd_reserve(ledger: StockLedger, args: argparse.Namespace) -> str:
    res = ledger.reserve(Sku(args.sku), Location(args.location), args.qty, args.order)
    return f"reserved {res.quantity} x {res.sku} as {res.id}"


def _cmd_ship(ledger: StockLedger, args: argparse.Namespace) -> str:
    res = ledger.ship(args.reservation, args.qty)
    return f"shipped {res.shipped}/{res.quantity} of {res.id}"


def _cmd_release(ledger: StockLedger, args: argparse.Namespace) -> str:
    res = ledger.release(args.reservation, args.reason or "")
    return f"released {res.id}"


def _cmd_status(ledger: StockLedger, args: argparse.Namespace) -> str:
    sku = Sku(args.sku)
    lines = [f"{sku}: {ledger.available(sku)} available"]
    for res in ledger.reservations(sku):
        lines.append(f"  {res.id} {res.remaining} open ({res.order_ref or '-'})")
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="acme-inventory")
    parser.add_argument("--ledger", type=Path, default=Path(DEFAULT_LEDGER))
    sub = parser.add_subparsers(dest="command", required=True)

    receive = sub.add_parser("receive", help="book new units in")
    receive.add_argument("sku")
    receive.add_argument("--location", default="main")
    receive.add_argument("--qty", type=int, required=True)
    receive.set_defaults(handler=_cmd_receive)

    reserve = sub.add_parser("reserve", help="promise units to an order")
    reserve.add_argument("sku")
    reserve.add_argument("--location", default="main")
    reserve.add_argument("--qty", type=int, required=True)
    reserve.add_argument("--order")
    reserve.set_defaults(handler=_cmd_reserve)

    ship = sub.add_parser("ship", help="ship a reservation")
    ship.add_argument("reservation")
    ship.add_argument("--qty", type=int)
    ship.set_defaults(handler=_cmd_ship)

    release = sub.add_parser("release", help="cancel the rest of a reservation")
    release.add_argument("reservation")
    release.add_argument("--reason")
    release.set_defaults(handler=_cmd_release)

    status = sub.add_parser("status", help="show availability of a SKU")
    status.add_argument("sku")
    status.set_defaults(handler=_cmd_status)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    ledger = _open(args.ledger)
    try:
        message = args.handler(ledger, args)
    except InventoryError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    save_ledger(ledger, args.ledger)
    print(message)
    return 0


if __name__ == "__main__":
    sys.exit(main())
