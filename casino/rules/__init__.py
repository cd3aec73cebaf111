"""The rules engine: pure Python, no Django import (a test enforces it).

Clause IDs (THB-, TDA-, RP-, DEAL-, CC-) refer to ``shared/rules-checklist.md``.
"""
