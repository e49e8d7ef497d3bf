"""Calibration: the printed sheet, teaching a tile set, and table/colour calibration."""
