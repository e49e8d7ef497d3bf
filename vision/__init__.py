"""Reading the table: camera sources, tile sets, candidate finding and recognition."""
