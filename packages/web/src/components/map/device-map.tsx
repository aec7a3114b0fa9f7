import 'leaflet/dist/leaflet.css';
import './device-map.css';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import * as L from 'leaflet';
import { useEffect, useRef, useState } from 'react';
// Natural Earth 1:110m countries (world-atlas, public domain), emitted as a file of the build
// and fetched from our own origin: the offline basemap.
import countriesUrl from 'world-atlas/countries-110m.json?url';
import { boundsOf, clusterIndex, graticule, type Cluster, type ClusterIndex, type MapPoint } from './cluster';
import { useMapConfig } from './map-config';
import { shapesOf, type Shape, type Topology } from './topojson';

/**
 * A Leaflet map of device markers with clustering (spec 2 §2 Map lens, Location page). This
 * module and Leaflet load only with the pages that show a map. Underneath everything is a
 * bundled country map (issue 11), so the map is usable with no tile server and no network;
 * tiles from the server's FLOTILLA_MAP_TILE_URL cover it with street-level detail when they
 * load, and a notice says when they are not configured or fail.
 */

export interface DeviceMarker extends MapPoint {
  /** Device name: the marker's accessible name and the popup's link text. */
  label: string;
  /** Overall status (colours the marker) and its translated text. */
  status: string | null;
  statusText: string;
  href: string;
}

export interface DeviceMapText {
  /** Accessible name of the map region. */
  map: string;
  /** Marker accessible name: `(marker) => "…"`. */
  marker: (m: DeviceMarker) => string;
  /** Cluster accessible name for `count` devices. */
  cluster: (count: number) => string;
  /** Popup heading of a cluster that cannot be split further (same position). */
  clusterList: (count: number) => string;
  more: (count: number) => string;
  tilesUnavailable: string;
  tilesNotConfigured: string;
}

interface Props {
  markers: DeviceMarker[];
  text: DeviceMapText;
  /** Client-side navigation for the popup links. */
  onNavigate: (href: string) => void;
  height?: number;
  /** Zoom used when the map shows one position. */
  singleZoom?: number;
}

const MAX_ZOOM = 18;

/** The basemap's pane: above Leaflet's map background, below the tile pane (200). */
const BASEMAP_PANE = 'flotilla-basemap';
let countries: Promise<Shape[]> | undefined;
function loadCountries(): Promise<Shape[]> {
  countries ??= fetch(countriesUrl)
    .then(async (res) => {
      if (!res.ok) throw new Error(`basemap: ${res.status}`);
      return shapesOf((await res.json()) as Topology, 'countries');
    })
    .catch((err: unknown) => {
      countries = undefined; // try again with the next map
      throw err;
    });
  return countries;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const CLUSTER_LIST_LIMIT = 10;

export default function DeviceMap({ markers, text, onNavigate, height = 420, singleZoom = 12 }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const layer = useRef<L.LayerGroup | null>(null);
  const fitted = useRef(false);
  const config = useMapConfig();
  const [tiles, setTiles] = useState<'none' | 'loading' | 'ok' | 'failed'>('none');
  const latest = useRef({ markers, text, onNavigate });
  latest.current = { markers, text, onNavigate };
  // One clustering index per set of markers, asked again at every zoom.
  const clusters = useRef<{ of: DeviceMarker[]; at: ClusterIndex<DeviceMarker> } | null>(null);

  // The map itself (once), then the tile layer when the configuration is known.
  useEffect(() => {
    if (!box.current) return;
    const m = L.map(box.current, { minZoom: 1, maxZoom: MAX_ZOOM, worldCopyJump: true, zoomControl: true, attributionControl: true });
    m.getContainer().classList.add('flotilla-map');
    m.setView([20, 0], 1);
    m.createPane(BASEMAP_PANE).style.zIndex = '150';
    const basemap = L.layerGroup().addTo(m);
    const renderer = L.svg({ pane: BASEMAP_PANE });
    loadCountries().then(
      (shapes) => {
        // The world and its neighbouring copies, so a wide map at low zoom has no empty side.
        for (const offset of [-360, 0, 360]) {
          for (const shape of shapes) {
            const polygons = offset === 0 ? shape.polygons : shape.polygons.map((p) => p.map((ring) => ring.map(([lat, lng]): [number, number] => [lat, lng + offset])));
            L.polygon(polygons, {
              pane: BASEMAP_PANE,
              renderer,
              className: 'flotilla-basemap-country',
              color: '#9fb3c2',
              weight: 0.7,
              fillColor: '#fbfaf6',
              fillOpacity: 1,
              interactive: false,
            }).addTo(basemap);
          }
        }
      },
      () => undefined, // no basemap: the graticule and the markers still work
    );
    for (const line of graticule(30)) L.polyline(line, { color: '#b0bec5', weight: 1, interactive: false }).addTo(m);
    layer.current = L.layerGroup().addTo(m);
    m.on('zoomend', () => draw());
    map.current = m;
    return () => {
      m.remove();
      map.current = null;
      layer.current = null;
      fitted.current = false;
    };
  }, []);

  const tileUrl = config.data?.mapTileUrl ?? null;
  const attribution = config.data?.mapAttribution ?? '';
  useEffect(() => {
    const m = map.current;
    if (!m || config.isPending) return;
    if (!tileUrl) {
      setTiles('none');
      return;
    }
    setTiles('loading');
    let loaded = false;
    // Leaflet renders the attribution as HTML: the configured text is shown as text.
    const tileLayer = L.tileLayer(tileUrl, { attribution: escapeHtml(attribution), maxZoom: MAX_ZOOM, crossOrigin: false });
    tileLayer.on('tileload', () => {
      loaded = true;
      setTiles('ok');
    });
    // Tiles that cannot load (closed network, bad URL): fall back to the country map, and stop
    // asking for more on every pan and zoom.
    tileLayer.on('tileerror', () => {
      if (loaded) return;
      setTiles('failed');
      tileLayer.remove();
    });
    tileLayer.addTo(m);
    tileLayer.bringToBack();
    return () => {
      tileLayer.remove();
    };
  }, [tileUrl, attribution, config.isPending]);

  function draw() {
    const m = map.current;
    const group = layer.current;
    if (!m || !group) return;
    const { markers: points, text: words } = latest.current;
    if (clusters.current?.of !== points) clusters.current = { of: points, at: clusterIndex(points, undefined, MAX_ZOOM) };
    group.clearLayers();
    for (const cluster of clusters.current.at(m.getZoom())) {
      if (cluster.members.length === 1) group.addLayer(deviceMarker(cluster.members[0]!, words));
      else group.addLayer(clusterMarker(m, cluster, words));
    }
  }

  function popupFor(members: DeviceMarker[], heading?: string): HTMLElement {
    const { onNavigate: go, text: words } = latest.current;
    const root = document.createElement('div');
    root.className = 'flotilla-map-popup';
    const link = (d: DeviceMarker) => {
      const a = document.createElement('a');
      a.href = d.href;
      a.textContent = d.label;
      a.addEventListener('click', (e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
        e.preventDefault();
        go(d.href);
      });
      return a;
    };
    const line = (d: DeviceMarker, into: HTMLElement) => {
      into.append(link(d), document.createTextNode(` · ${d.statusText}`));
    };
    if (members.length === 1) {
      line(members[0]!, root);
      return root;
    }
    const title = document.createElement('div');
    title.textContent = heading ?? '';
    root.append(title);
    const list = document.createElement('ul');
    for (const d of members.slice(0, CLUSTER_LIST_LIMIT)) {
      const li = document.createElement('li');
      line(d, li);
      list.append(li);
    }
    root.append(list);
    if (members.length > CLUSTER_LIST_LIMIT) {
      const more = document.createElement('div');
      more.textContent = words.more(members.length - CLUSTER_LIST_LIMIT);
      root.append(more);
    }
    return root;
  }

  function deviceMarker(d: DeviceMarker, words: DeviceMapText): L.Marker {
    const icon = L.divIcon({ className: 'flotilla-map-marker', iconSize: [18, 18], html: '' });
    const marker = L.marker([d.lat, d.lng], { icon, keyboard: true, title: words.marker(d), riseOnHover: true });
    marker.bindPopup(() => popupFor([d]));
    marker.on('add', () => {
      const el = marker.getElement();
      el?.setAttribute('aria-label', words.marker(d));
      el?.setAttribute('data-status', d.status ?? 'unknown');
      el?.setAttribute('data-testid', 'map-marker');
    });
    return marker;
  }

  function clusterMarker(m: L.Map, cluster: Cluster<DeviceMarker>, words: DeviceMapText): L.Marker {
    const count = cluster.members.length;
    const size = count < 10 ? 32 : count < 100 ? 38 : 46;
    const icon = L.divIcon({ className: 'flotilla-map-cluster', iconSize: [size, size], html: String(count) });
    const marker = L.marker([cluster.lat, cluster.lng], { icon, keyboard: true, title: words.cluster(count) });
    const bounds = boundsOf(cluster.members)!;
    const samePlace = bounds[0][0] === bounds[1][0] && bounds[0][1] === bounds[1][1];
    const open = () => {
      // Zoom into the cluster until it splits; devices at one position are listed instead.
      if (samePlace || m.getZoom() >= m.getMaxZoom()) {
        marker.bindPopup(() => popupFor(cluster.members, words.clusterList(count))).openPopup();
      } else {
        m.fitBounds(bounds, { padding: [40, 40], maxZoom: MAX_ZOOM });
      }
    };
    marker.on('click', open);
    marker.on('keypress', (e: L.LeafletKeyboardEvent) => {
      if (e.originalEvent.key === 'Enter' || e.originalEvent.key === ' ') open();
    });
    marker.on('add', () => {
      const el = marker.getElement();
      el?.setAttribute('aria-label', words.cluster(count));
      el?.setAttribute('data-testid', 'map-cluster');
      el?.setAttribute('data-count', String(count));
    });
    return marker;
  }

  // Markers: redrawn when they change; the view fits them the first time there are some.
  useEffect(() => {
    const m = map.current;
    if (!m) return;
    if (!fitted.current && markers.length > 0) {
      fitted.current = true;
      const bounds = boundsOf(markers)!;
      if (markers.length === 1 || (bounds[0][0] === bounds[1][0] && bounds[0][1] === bounds[1][1])) m.setView([markers[0]!.lat, markers[0]!.lng], singleZoom);
      else m.fitBounds(bounds, { padding: [40, 40], maxZoom: 14 });
    }
    draw();
  }, [markers, singleZoom]);

  const notice = config.isPending ? null : tiles === 'none' ? text.tilesNotConfigured : tiles === 'failed' ? text.tilesUnavailable : null;
  return (
    <Box sx={{ position: 'relative' }}>
      <Box ref={box} role="region" aria-label={text.map} sx={{ height, borderRadius: 1, border: 1, borderColor: 'divider', zIndex: 0 }} />
      {notice ? (
        <Alert severity="info" variant="outlined" sx={{ mt: 1, py: 0 }} data-testid="map-tiles-notice">
          {notice}
        </Alert>
      ) : null}
    </Box>
  );
}
