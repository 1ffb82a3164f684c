import { describe, expect, it, vi } from 'vitest'
import { fireEvent, render } from '@testing-library/react'
import { heroVideo } from '@/content/home'
import { FallbackVideo, mediaSources } from './fallback-video'

describe('FallbackVideo', () => {
  it('lists the WebM primary before the MP4 fallback, with the poster and the fallback text', () => {
    const { container } = render(
      <FallbackVideo media={heroVideo} onAllFailed={() => {}}>
        Your browser does not support the video tag.
      </FallbackVideo>,
    )
    const video = container.querySelector('video')!
    expect(video.getAttribute('poster')).toBe('/media/hero-poster.webp')
    expect([...video.querySelectorAll('source')].map((s) => [s.getAttribute('src'), s.getAttribute('type')])).toEqual(
      mediaSources(heroVideo).map((s) => [s.src, s.type]),
    )
    expect(video.textContent).toBe('Your browser does not support the video tag.')
  })

  it('reports failure only once every source has failed', () => {
    const onAllFailed = vi.fn()
    const { container } = render(<FallbackVideo media={heroVideo} onAllFailed={onAllFailed} />)
    const [primary, fallback] = container.querySelectorAll('source')
    fireEvent.error(primary)
    fireEvent.error(primary)
    expect(onAllFailed).not.toHaveBeenCalled()
    fireEvent.error(fallback)
    expect(onAllFailed).toHaveBeenCalledTimes(1)
    expect(onAllFailed).toHaveBeenCalledWith(['/media/hero.webm', '/media/hero.mp4'])
  })
})
