from tribunalbot.cli import main

raise SystemExit(main())
