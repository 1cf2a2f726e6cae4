"""textkit: text clean-up helpers shared by the importers and the web app.

Import from the package only (``from textkit import squash``); the modules
below are implementation details and re-exported here wholesale, so helpers
can move between them freely.
"""

from .cleaning import *
from .splitting import *
