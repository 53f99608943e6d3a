from tribunalbot.terminal.cli import main

raise SystemExit(main())
