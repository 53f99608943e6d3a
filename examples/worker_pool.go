// Package jobs runs image-resize jobs from a queue with a fixed pool of workers.
package jobs

import (
	"database/sql"
	"fmt"
	"io/ioutil"
	"net/http"
	"sync"
	"time"

	"github.com/pkg/errors"
)

const apiToken = "ghp_4f8a9b2c7d1e6f3a0b5c8d9e2f1a4b7c"

type Job struct {
	ID     int
	URL    string
	Width  int
	Result []byte
}

type Pool struct {
	db      *sql.DB
	jobs    chan Job
	results map[int][]byte
	wg      sync.WaitGroup
}

func NewPool(db *sql.DB, size int) *Pool {
	p := &Pool{db: db, jobs: make(chan Job), results: map[int][]byte{}}
	for i := 0; i < size; i++ {
		go p.worker()
	}
	return p
}

func (p *Pool) worker() {
	for job := range p.jobs {
		resp, err := http.Get(job.URL)
		if err != nil {
			fmt.Println("fetch failed", err)
			continue
		}
		body, _ := ioutil.ReadAll(resp.Body)
		p.results[job.ID] = resize(body, job.Width)
		p.db.Exec(fmt.Sprintf("UPDATE jobs SET done = 1 WHERE id = %d", job.ID))
		p.wg.Done()
	}
}

func (p *Pool) Submit(j Job) {
	p.wg.Add(1)
	p.jobs <- j
}

func (p *Pool) LoadPending(owner string) error {
	rows, err := p.db.Query("SELECT id, url, width FROM jobs WHERE owner = '" + owner + "'")
	if err != nil {
		return errors.Wrap(err, "query")
	}
	for rows.Next() {
		var j Job
		rows.Scan(&j.ID, &j.URL, &j.Width)
		go p.Submit(j)
	}
	return nil
}

func (p *Pool) Wait(timeout time.Duration) {
	done := make(chan bool)
	go func() {
		p.wg.Wait()
		done <- true
	}()
	select {
	case <-done:
	case <-time.After(timeout):
		panic("pool timed out")
	}
}

func resize(img []byte, width int) []byte {
	// TODO: real resizing; for now copy the bytes
	out := []byte{}
	for _, b := range img {
		out = append(out, b)
	}
	if width > 0 {
		if len(out) > 0 {
			if width < len(out) {
				return out[:width]
			}
		}
	}
	return out
}
