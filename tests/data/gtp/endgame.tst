# The pass decision reads the end-of-game judgement: it never passes a lost position
# that the judgement calls lost. sgf/bent_four_pass.sgf (made for this test) ends
# B pass, W pass; White's corner is bent four in the corner, dead, and Black wins by
# 1.5. The settling playouts alone call the corner a seki (White by 25.5), so a pass
# rule that trusted them would pass here and lose.

# Before White's pass (move 2): White to move after Black's pass.
1 loadsgf sgf/bent_four_pass.sgf 2
#? []
2 final_score
#? [B\+1\.5]
3 final_status_list dead
#? [A6 B6 C6 D6 B7 C7 D7 B8 C8 D8 D9]
4 final_status_list seki
#? []
# Not a pass (any move, or a resignation).
5 genmove w
#? [[A-HJa-hj][1-9]|resign]
