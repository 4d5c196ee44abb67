# Viking Raid tests (issue 7): combat odds, the loadout optimiser, the raid-day game, the CLI.
hnefi_test(test_raid_combat ${CMAKE_CURRENT_SOURCE_DIR}/games/test_raid_combat.c LABELS raid)
hnefi_test(test_raid_buy ${CMAKE_CURRENT_SOURCE_DIR}/games/test_raid_buy.c LABELS raid)
hnefi_test(test_raid_day ${CMAKE_CURRENT_SOURCE_DIR}/games/test_raid_day.c LABELS raid)
hnefi_test(test_raid_cli ${CMAKE_CURRENT_SOURCE_DIR}/games/test_raid_cli.c
           ${CMAKE_SOURCE_DIR}/tools/cmd_mc_raid.c ${CMAKE_SOURCE_DIR}/tools/cli.c LABELS raid)
