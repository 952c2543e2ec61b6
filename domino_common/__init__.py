"""What every side of the table (controller, vision, seat device) shares and none may own: the
clock. It imports none of them (``.importlinter``), so each may import it."""
