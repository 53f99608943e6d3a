from tribunalbot.terminal.launch import main

raise SystemExit(main())
