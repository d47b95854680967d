import ColourfulBallCommands

ColourfulBall.main()
