from boardct.cli.main import main

main()
