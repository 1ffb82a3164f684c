#!/usr/bin/env bash
# Generates the original landing page's experience loops, posters and 360°
# panoramas into web/public/landing/ (the home page's media are in
# web/public/media/, made by media.sh).
#
# Everything is drawn by ffmpeg's lavfi sources with DejaVu text, so nothing
# loads from an external host. The outputs are committed; rerun only to
# change them. Budget: each loop 5 s and at most 300 KB.
set -euo pipefail
cd "$(dirname "$0")/.."

out=web/public/landing
font=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
font_light=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
mkdir -p "$out"
seconds=5
fps=24

# experience NAME C0 C1 C2 TITLE SUBTITLE STATIONS...: a loop, its poster and
# a 360° panorama whose stations are spread evenly around the circle.
experience() {
  local name=$1 c0=$2 c1=$3 c2=$4 title=$5 subtitle=$6
  shift 6
  local graph="gradients=s=854x480:r=${fps}:d=${seconds}:n=3:c0=${c0}:c1=${c1}:c2=${c2}:speed=0.025:type=linear,format=yuv420p"
  graph+=",drawgrid=w=40:h=40:t=1:c=white@0.08"
  graph+=",drawbox=x='iw/2-120+90*sin(2*PI*t/${seconds})':y='ih/2+40':w=240:h=6:c=0xf59e0b@0.7:t=fill"
  graph+=",drawbox=x='iw/2-8+200*sin(2*PI*t/${seconds})':y='ih/2+30':w=16:h=26:c=white@0.9:t=fill"
  graph+=",drawtext=fontfile=${font}:text='${title}':fontcolor=white@0.95:fontsize=42:x=(w-tw)/2:y=(h-th)/2-60:shadowcolor=black@0.6:shadowx=2:shadowy=2"
  graph+=",drawtext=fontfile=${font_light}:text='${subtitle}':fontcolor=white@0.85:fontsize=22:x=(w-tw)/2:y=(h/2)-10:shadowcolor=black@0.6:shadowx=1:shadowy=1"
  graph+=",fade=t=in:st=0:d=0.4,fade=t=out:st=$((seconds - 1)).6:d=0.4"
  ffmpeg -hide_banner -loglevel error -y -f lavfi -i "$graph" \
    -c:v libvpx-vp9 -b:v 0 -crf 42 -row-mt 1 -deadline good -cpu-used 2 -an "$out/$name.webm"
  ffmpeg -hide_banner -loglevel error -y -f lavfi -i "$graph" \
    -c:v libx264 -profile:v main -preset slow -crf 32 -pix_fmt yuv420p -movflags +faststart -an "$out/$name.mp4"
  ffmpeg -hide_banner -loglevel error -y -ss 1.2 -i "$out/$name.mp4" -frames:v 1 -c:v libwebp -quality 60 "$out/$name-poster.webp"

  # The panorama: 2048x512, one labelled station every 2048/N pixels.
  local pano="gradients=s=2048x512:d=1:n=3:c0=${c0}:c1=${c1}:c2=${c2}:type=linear,format=yuv420p"
  pano+=",drawgrid=w=64:h=64:t=1:c=white@0.10,drawbox=x=0:y=380:w=iw:h=132:c=black@0.35:t=fill"
  local i=0 n=$#
  for station in "$@"; do
    local x=$((i * 2048 / n + 1024 / n))
    pano+=",drawbox=x=$((x - 70)):y=170:w=140:h=200:c=white@0.18:t=fill"
    pano+=",drawtext=fontfile=${font}:text='${station}':fontcolor=white:fontsize=30:x=${x}-tw/2:y=410"
    i=$((i + 1))
  done
  ffmpeg -hide_banner -loglevel error -y -f lavfi -i "$pano" -frames:v 1 -c:v libwebp -quality 55 "$out/$name-360.webp"
}

experience welding-simulation 0x1c1917 0xc2410c 0xfacc15 'Advanced Welding Simulation' 'SMAW fillet welds in a virtual booth' \
  'Welding booth' 'Fume extractor' 'Fit-up table' 'Inspection bench'
experience electrical-panel 0x0b1220 0x1d4ed8 0xf59e0b 'Electrical Panel Training' 'Lockout/tagout at a live panel' \
  'Main panel' 'Lockout station' 'Meter bench' 'PPE cabinet'
experience solar-installation 0x0c1e3a 0x0891b2 0xfacc15 'Solar Panel Installation' 'Rooftop PV array and inverter' \
  'Roof array' 'Combiner box' 'Inverter' 'Fall protection anchor'

ls -l "$out"
for f in "$out"/*.webm "$out"/*.mp4; do
  [ "$(stat -c %s "$f")" -le 307200 ] || { echo "$f is over 300 KB" >&2; exit 1; }
done
