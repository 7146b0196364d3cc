import sys

from rag.cli.main import main

sys.exit(main())
