#!/usr/bin/env bash
# Generates the home page's video loops and posters into web/public/media/.
#
# Everything is drawn by ffmpeg's lavfi sources (gradients, drawgrid, drawbox,
# drawtext with DejaVu), so the product ships its own media and nothing loads
# from an external host. The outputs are committed; rerun this script only to
# change them (needs Debian's ffmpeg and fonts-dejavu-core).
#
# Budget: each loop 5 s, at most 400 KB; all files together under 3 MB.
set -euo pipefail
cd "$(dirname "$0")/.."

out=web/public/media
font=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
font_light=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
command -v ffmpeg >/dev/null || { echo "ffmpeg is missing: apt-get install ffmpeg" >&2; exit 1; }
[ -f "$font" ] || { echo "DejaVu fonts are missing: apt-get install fonts-dejavu-core" >&2; exit 1; }
mkdir -p "$out"

seconds=5
fps=24
size=854x480

# scene NAME COLOR0 COLOR1 COLOR2 TITLE SUBTITLE: one looping clip.
# A slowly rotating three-colour gradient, a blueprint grid, a sweeping
# "scanner" bar and the programme's name. The gradient's speed is chosen so
# the clip ends near where it starts, which keeps the loop seam soft.
scene() {
  local name=$1 c0=$2 c1=$3 c2=$4 title=$5 subtitle=$6
  local graph
  graph="gradients=s=${size}:r=${fps}:d=${seconds}:n=3:c0=${c0}:c1=${c1}:c2=${c2}:speed=0.02:type=radial,format=yuv420p"
  graph+=",drawgrid=w=48:h=48:t=1:c=white@0.10"
  graph+=",drawbox=x='mod(t*180\,iw+120)-120':y=0:w=60:h=ih:c=white@0.08:t=fill"
  graph+=",drawbox=x=0:y='ih*0.62+20*sin(2*PI*t/${seconds})':w=iw:h=2:c=0xf59e0b@0.55:t=fill"
  # The hero's heading is page text over the video, so its clip carries none.
  if [ -n "$title" ]; then
    graph+=",drawtext=fontfile=${font}:text='${title}':fontcolor=white@0.92:fontsize=46:x=(w-tw)/2:y=(h-th)/2-28:shadowcolor=black@0.6:shadowx=2:shadowy=2"
    graph+=",drawtext=fontfile=${font_light}:text='${subtitle}':fontcolor=white@0.85:fontsize=24:x=(w-tw)/2:y=(h/2)+22:shadowcolor=black@0.6:shadowx=1:shadowy=1"
  fi
  graph+=",fade=t=in:st=0:d=0.4,fade=t=out:st=$((seconds - 1)).6:d=0.4"

  ffmpeg -hide_banner -loglevel error -y -f lavfi -i "$graph" \
    -c:v libvpx-vp9 -b:v 0 -crf 42 -row-mt 1 -deadline good -cpu-used 2 -an "$out/$name.webm"
  ffmpeg -hide_banner -loglevel error -y -f lavfi -i "$graph" \
    -c:v libx264 -profile:v main -preset slow -crf 32 -pix_fmt yuv420p -movflags +faststart -an "$out/$name.mp4"
  # The poster (WebP, a few KB) is the frame a second in, after the fade.
  ffmpeg -hide_banner -loglevel error -y -ss 1.2 -i "$out/$name.mp4" -frames:v 1 -c:v libwebp -quality 60 "$out/$name-poster.webp"
}

scene hero            0x0b1220 0x1e3a8a 0x0e7490 ''                            ''
scene electrical-vr   0x0b1220 0x1d4ed8 0xf59e0b 'Electrical Safety VR'        'OSHA 10-Hour Electrical Safety'
scene welding-ar      0x1c1917 0xc2410c 0xfacc15 'Welding AR'                  'AWS D1.1 Structural Steel'
scene hvac-mixed      0x042f2e 0x0891b2 0x22c55e 'HVAC Mixed Reality'          'EPA Section 608 Universal'
scene plumbing-vr     0x0c1e3a 0x2563eb 0x38bdf8 'Plumbing Systems VR'         'Master Plumber License'
scene construction-ar 0x1f2937 0xca8a04 0xea580c 'Construction Safety AR'      'Construction Safety Manager'

ls -l "$out"
total=$(du -cb "$out"/* | tail -1 | cut -f1)
echo "total: $total bytes"
for f in "$out"/*.webm "$out"/*.mp4; do
  [ "$(stat -c %s "$f")" -le 409600 ] || { echo "$f is over 400 KB" >&2; exit 1; }
done
[ "$total" -lt 3145728 ] || { echo "media total is over 3 MB" >&2; exit 1; }
