"""Exceptions raised by the inventory package.

All of them derive from :class:`InventoryError` so callers can catch a single
type at the boundary of their application.
"""


class InventoryError(Exception):
    """Base class for every error raised by this package."""


class UnknownSku(InventoryError, KeyError):
    """The SKU has never been received or priced."""

    def __init__(self, sku):
        super().__init__(sku)
        self.sku = sku

    def __str__(self):
        return f"unknown SKU: {self.sku!r}"


class UnknownReservation(InventoryError, KeyError):
    """No open reservation has this id (it may have been shipped or released)."""

    def __init__(self, reservation_id):
        super().__init__(reservation_id)
        self.reservation_id = reservation_id

    def __str__(self):
        return f"no open reservation {self.reservation_id!r}"


class InsufficientStock(InventoryError):
    """A reservation, shipment or transfer asked for more units than are available."""

    def __init__(self, sku, location, requested, available):
        super().__init__(sku, location, requested, available)
        self.sku = sku
        self.location = location
        self.requested = requested
        self.available = available

    def __str__(self):
        return (
            f"cannot take {self.requested} x {self.sku} from {self.location}: "
            f"only {self.available} available"
        )
